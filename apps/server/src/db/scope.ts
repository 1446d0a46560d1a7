/**
 * Whose rows a repository may touch. Repositories are built for a scope and add its filter to
 * every query themselves (`where org_id = scope.orgId`); a handler never writes that filter.
 * Which organisation a request may act on (its own; any, for a super admin) is the policies'
 * decision, taken before a repository is built.
 */
export interface OrgScope {
  readonly orgId: number;
}

export const orgScope = (orgId: number): OrgScope => ({ orgId });
