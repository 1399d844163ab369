/**
 * `team-chat-simulator` (`npx team-chat-simulator --port 9991`): the published package's command,
 * compiled to lib/cli.mjs by `npm run build:package`. It is `npm run simulator` under the
 * package's name; the in-process API it runs is the package's own lib/index.cjs, not a copy.
 */
import { runSimulatorCommand } from './command.ts';

await runSimulatorCommand({ invocation: 'team-chat-simulator' });
