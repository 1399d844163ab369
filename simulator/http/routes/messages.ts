import type { Route } from '../route.ts';

export const messageRoutes: Route[] = [];
