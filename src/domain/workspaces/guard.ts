/**
 * The wrapper that checks the scope each use case needs (its table in scope-tables.ts,
 * docs/workspaces.md#scopes) before the use case runs: the REST API, the MCP tools and the dashboard
 * reach the same checked services, so no edge can forget one. The tables are complete by type:
 * a method added to a service without an entry here does not compile.
 */
import type { Scope } from '../design.js';
import { requireScope, type Principal } from './roles.js';

/**
 * What a method needs: a scope of its caller (its first argument is the {@link Principal}), or
 * `internal` for a method the other use cases call with no caller (a worker's, a deletion's).
 */
export type Need = Scope | 'internal';

/** One entry per method of `S`. */
export type ScopeTable<S> = { [K in keyof S]: Need };

/**
 * `service` with each method whose table entry is a scope checking it first: ForbiddenError
 * (403 `FORBIDDEN`) naming the scope when the principal lacks it. Other members pass through.
 */
export function guarded<S extends object>(service: S, table: ScopeTable<S>): S {
  const checked = { ...service } as Record<string, unknown>;
  for (const [name, need] of Object.entries<Need>(table)) {
    const method = checked[name];
    if (need === 'internal' || typeof method !== 'function') continue;
    checked[name] = (principal: Principal, ...rest: unknown[]) => {
      requireScope(principal, need);
      return (method as (...args: unknown[]) => unknown).call(service, principal, ...rest);
    };
  }
  return checked as S;
}
