/**
 * `npm run deploy-config -- --server nginx|caddy --root DIR --listen HOST:PORT`: prints a server
 * configuration for a built dist/ that answers like `npm run serve` (catalog/deploy-config.ts).
 */
import path from 'node:path';
import { deployConfig, type DeployServer } from './catalog/deploy-config.ts';
import { parseCli, usageError } from './cli/args.ts';
import { PROJECT_ROOT } from './cli/root.ts';

const USAGE = `Usage: npm run deploy-config -- --server nginx|caddy [--root DIR] [--listen HOST:PORT]

Prints a complete configuration that serves a built catalog as npm run serve does: content
types with charset, CORS, caching and nosniff headers from the same rules as _headers, the JSON
404 under /api/, no _headers or twin by its own name, the precompressed twins when the build
made them (npm run build -- --precompress). nginx: a server { … } block for the http context;
Caddy: a Caddyfile site block.

  --server S        nginx or caddy
  --root DIR        the built folder on the server (default: this project's dist/)
  --listen H:P      address and port (default 127.0.0.1:8080)
  -h, --help        this text`;

const values = parseCli(USAGE, {
  server: { type: 'string' },
  root: { type: 'string', default: path.join(PROJECT_ROOT, 'dist') },
  listen: { type: 'string', default: '127.0.0.1:8080' },
});
if (values.server !== 'nginx' && values.server !== 'caddy') usageError(`--server must be nginx or caddy, got "${values.server ?? ''}"`, USAGE);
if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(values.listen)) usageError(`--listen must be HOST:PORT, got "${values.listen}"`, USAGE);
process.stdout.write(deployConfig(values.server as DeployServer, { root: path.resolve(values.root), listen: values.listen }));
