import { describe, expect, it } from 'vitest';
import { arrangeMenu, NAV_GROUPS, type NavItem } from './navigation';

type Status = 'active' | 'inactive';
const menu = (statuses: Partial<Record<string, Status>>, staff = false) =>
  arrangeMenu(NAV_GROUPS, {
    staff,
    visible: (item: NavItem) => {
      const status = statuses[item.feature] ?? 'active';
      return { feature_status: status };
    },
  }).map(({ group, items }) => ({ group: group.id, items: items.map(({ item, entry }) => `${item.feature}${item.route ? `:${item.route}` : ''}${entry.feature_status === 'active' ? '' : '?'}`) }));

const all = (groups: ReturnType<typeof menu>) => groups.flatMap((g) => g.items);

describe('arrangeMenu', () => {
  it('offers the symptom checker once, however many items open it', () => {
    const items = all(menu({}));
    expect(items.filter((i) => i.startsWith('symptom-checker') || i.startsWith('self-diagnosis'))).toEqual(['symptom-checker']);
    // No other item twice either.
    expect(new Set(items).size).toBe(items.length);
  });

  it('keeps the first place, with the active one of them', () => {
    const groups = menu({ 'symptom-checker': 'inactive' });
    expect(groups.find((g) => g.group === 'care')!.items[0]).toBe('self-diagnosis');
    expect(all(groups).filter((i) => i.startsWith('symptom-checker'))).toEqual([]);
    expect(all(menu({ 'symptom-checker': 'inactive', 'self-diagnosis': 'inactive' })).filter((i) => /symptom|diagnosis/.test(i))).toEqual(['symptom-checker?']);
  });

  it('keeps items that open another page of the same feature (CareClub+ and Family members)', () => {
    expect(all(menu({})).filter((i) => i.startsWith('careclub'))).toEqual(['careclub', 'careclub:family-members']);
  });

  it("puts a staff member's console groups first", () => {
    expect(menu({}, true).map((g) => g.group).slice(0, 3)).toEqual(['provider', 'admin', 'main']);
    expect(menu({}).map((g) => g.group)[0]).toBe('main');
  });
});
