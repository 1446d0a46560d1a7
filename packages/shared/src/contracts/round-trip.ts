import { z } from 'zod';

/**
 * The API accepts its own answers. Each resource declares its read-only fields once, next to its
 * answer schema (ids, timestamps, values the server derives), and every PUT and PATCH body is
 * built with `writableBody`: those fields are accepted whatever their value and dropped before
 * the body reaches a service, as Django REST ignores read-only fields. A client may therefore send
 * the answer of a GET back unchanged; a strict body still refuses a field that is neither
 * writable nor read-only (a typo stays a 400).
 *
 * A field whose meaning depends on another (a share's `expires_at` counts only with
 * `expires_in: "custom"`) is declared with `requiresField`: sent without the other, it is refused
 * with a message naming both fields, never silently dropped or overridden by a default.
 */

/** The read-only fields of an answer: names checked against the answer schema. */
export function readOnlyFields<S extends z.ZodRawShape, const K extends keyof S & string>(answer: z.ZodObject<S>, keys: readonly K[]): readonly K[] {
  for (const key of keys) if (!(key in answer.shape)) throw new Error(`readOnlyFields: ${key} is not a field of the answer`);
  return keys;
}

const ignored = () => z.unknown().optional().meta({ readOnly: true, description: 'read-only: accepted and ignored (as the answer gives it)' });

/**
 * A PUT or PATCH body that accepts the resource's read-only fields and ignores them. Answers the
 * body's own output (the read-only fields removed); its OpenAPI form lists them as readOnly.
 */
export function writableBody<S extends z.ZodRawShape, C extends z.core.$ZodObjectConfig, K extends string>(
  body: z.ZodObject<S, C>,
  readOnly: readonly K[],
  rules: readonly FieldRequirement[] = [],
) {
  const clash = readOnly.filter((key) => key in body.shape);
  if (clash.length) throw new Error(`writableBody: ${clash.join(', ')} cannot be both writable and read-only`);
  const ignoredShape = Object.fromEntries(readOnly.map((key) => [key, ignored()])) as { [P in K]: ReturnType<typeof ignored> };
  let extended = body.extend(ignoredShape);
  // The body's OpenAPI name moves to what clients now send (one schema per name).
  const meta = z.globalRegistry.get(body);
  if (meta) {
    z.globalRegistry.remove(body);
    extended = extended.meta(meta);
  }
  // Pairs are checked on what was sent, read-only fields included (is_recurring without a recurrence is not ignored).
  const checked = rules.length ? extended.superRefine(requiresFields(rules)) : extended;
  return checked.transform((value): z.output<z.ZodObject<S, C>> => {
    const copy: Record<string, unknown> = { ...value };
    for (const key of readOnly) delete copy[key];
    return copy as z.output<z.ZodObject<S, C>>;
  });
}

/** One field that counts only together with another (and, when given, that one's value). */
export interface FieldRequirement {
  field: string;
  requires: string;
  /** The value the other field must have (any value when left out). */
  value?: string | boolean | number;
}

/**
 * Refuses a body that sends a field without the one it depends on: 400 under the field, with a
 * message naming both (`validation:fieldRequiresField` / `validation:fieldRequiresValue`). Give
 * the rules the raw input's view: a field with a default must not be defaulted before this check
 * (declare it optional and default it in the service or a later transform).
 */
export function fieldRequirementIssues(value: Record<string, unknown>, rules: readonly FieldRequirement[]): Array<{ path: string[]; message: string; params: Record<string, string> }> {
  const issues: Array<{ path: string[]; message: string; params: Record<string, string> }> = [];
  for (const rule of rules) {
    const given = value[rule.field];
    if (given === undefined || given === null || given === false) continue;
    const other = value[rule.requires];
    const met = rule.value === undefined ? other !== undefined && other !== null : other === rule.value;
    if (!met) {
      issues.push({
        path: [rule.field],
        message: rule.value === undefined ? 'validation:fieldRequiresField' : 'validation:fieldRequiresValue',
        params: { field: rule.field, other: rule.requires, ...(rule.value === undefined ? {} : { value: JSON.stringify(rule.value) }) },
      });
    }
  }
  return issues;
}

/** A zod check for `fieldRequirementIssues`, for an object schema's `.check()` / `.superRefine()`. */
export function requiresFields(rules: readonly FieldRequirement[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const issue of fieldRequirementIssues(value, rules)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, params: issue.params });
  };
}
