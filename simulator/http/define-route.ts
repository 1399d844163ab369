/**
 * Typed route definitions. `defineRoute` takes a route as the table holds it and gives its
 * handler a context typed from the declaration: each parameter's decoded type (from its `type`,
 * `required` / `default` / `in: 'path'`, `oneOf` literals and `validate`'s return type) and the
 * user the route's auth kind guarantees. The route it returns is the object it was given, so the
 * table and the dispatcher see a plain `Route` and the request path pays nothing for the types.
 */
import type { Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';
import type { ParamSpec, ParamType, Reply, ResponseName, ResponseOf, Route, RouteAuth, RouteBase, RouteContext, RouteResult, UploadedFile } from './route.ts';

/** The decoded value of each parameter type, before `oneOf` and `validate` narrow it. */
interface ParamTypes {
  file: UploadedFile[];
  string: string;
  int: number;
  bool: boolean;
  float: number;
  json: unknown;
  int_array: number[];
  string_array: string[];
  json_object: Record<string, unknown>;
  json_array: unknown[];
  int_or_string: number | string;
  int_array_or_string_array: number[] | string[];
}

/** What one parameter decodes to when it is sent: `validate`'s result, else a `oneOf` literal, else its type's value. */
export type SentValue<S extends ParamSpec> = S extends { validate: (value: never, name: string) => infer R }
  ? R
  : S extends { oneOf: readonly (infer L)[] }
    ? L
    : ParamTypes[S['type'] & ParamType];

/**
 * What the handler reads for one parameter: always there when required, from the path, or a file
 * list (empty when none was sent); else its default when declared (a `null` or `undefined`
 * default adds itself to the type; any other default is taken to be of the parameter's type, as
 * the route's author declared it), else possibly undefined.
 */
export type ParamValue<S extends ParamSpec> = S extends { required: true } | { in: 'path' } | { type: 'file' }
  ? SentValue<S>
  : S extends { default: infer D }
    ? SentValue<S> | (D extends null | undefined ? D : never)
    : SentValue<S> | undefined;

/** A route's decoded parameters by name, from its declared list. */
export type ParamsOf<P extends readonly ParamSpec[]> = { [S in P[number] as S['name']]: ParamValue<S> };

/** The user a route's auth kind guarantees: one for every kind that authenticates, none for none/dev, maybe for optional. */
export type UserOf<A extends RouteAuth> = A extends 'none' | 'dev' ? undefined : A extends 'optional' ? UserRecord | undefined : UserRecord;

/** A handler's context with its parameters and its user typed. */
export interface TypedContext<P extends readonly ParamSpec[], A extends RouteAuth> extends Omit<RouteContext, 'params' | 'user'> {
  params: ParamsOf<P>;
  user: UserOf<A>;
}

type TypedBase<P extends readonly ParamSpec[], A extends RouteAuth> = Omit<RouteBase, 'auth' | 'params' | 'guard'> & {
  auth: A;
  params: P;
  /** As RouteBase.guard: runs only when a user was authenticated. */
  guard?(engine: Engine, user: UserRecord): void;
};

/** A route naming its response schema: the handler answers that schema's fields. */
export type TypedRoute<P extends readonly ParamSpec[], A extends RouteAuth, K extends ResponseName> = TypedBase<P, A> & {
  response: K;
  handler(ctx: TypedContext<P, A>): Reply<ResponseOf<K>>;
};

/** A route without a response schema (tests' own routes): any fields. */
export type UncheckedTypedRoute<P extends readonly ParamSpec[], A extends RouteAuth> = TypedBase<P, A> & {
  response?: undefined;
  handler(ctx: TypedContext<P, A>): Reply<RouteResult>;
};

/**
 * One route of the table, typed. The parameter list keeps its order (the first failing parameter
 * is the one Zulip reports). The handler returns its success fields or the Outcome of the
 * action(s) it ran (combineOutcomes for several): dispatch commits the events once the handler
 * has answered, and publishes nothing for a handler that throws.
 */
export function defineRoute<const P extends readonly ParamSpec[], A extends RouteAuth, K extends ResponseName>(route: TypedRoute<P, A, K>): Route;
export function defineRoute<const P extends readonly ParamSpec[], A extends RouteAuth>(route: UncheckedTypedRoute<P, A>): Route;
export function defineRoute(route: object): Route {
  // The same object: the types above are the whole of the difference.
  return route as Route;
}

/**
 * A parameter list kept apart from its route (shared by several routes, or built by helpers),
 * with its names and types kept literal so `defineRoute` can type the handler from it.
 */
export function paramList<const P extends readonly ParamSpec[]>(specs: P): P {
  return specs;
}
