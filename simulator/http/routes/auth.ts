import type { Route } from '../route.ts';

export const authRoutes: Route[] = [];
