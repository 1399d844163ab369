import type { Route } from '../route.ts';

export const channelRoutes: Route[] = [];
