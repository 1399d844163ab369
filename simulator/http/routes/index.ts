/** THE route table: every endpoint the simulator serves, in one list. */
import type { Route } from '../route.ts';
import { authRoutes } from './auth.ts';
import { channelRoutes } from './channels.ts';
import { messageRoutes } from './messages.ts';
import { userRoutes } from './users.ts';

export const routes: readonly Route[] = [...authRoutes, ...userRoutes, ...channelRoutes, ...messageRoutes];
