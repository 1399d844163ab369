/**
 * `npm run simulator`: the chat simulator over HTTP (default http://127.0.0.1:9991/api/v1),
 * printing every fixture user's email, role and API key. SIGTERM or SIGINT stops it cleanly
 * (requests in flight finish, long-polls answer), exit code 0. The published package runs the
 * same command as `team-chat-simulator` (simulator/cli/team-chat-simulator.ts).
 */
import { runSimulatorCommand } from '../simulator/cli/command.ts';

// Not awaited: the bundle is CommonJS (scripts/run.mjs), which has no top-level await. A failure
// still ends the process (an unhandled rejection), and the server keeps it running.
void runSimulatorCommand({ invocation: 'npm run simulator --', seedSharedWith: 'npm start' });
