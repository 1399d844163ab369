/** How the control API names a route of the API: `METHOD /pattern`, as the route table writes it. */
import type { Route } from '../http/route.ts';

export function routeName(route: Route): string {
  return `${route.method} ${route.path}`;
}
