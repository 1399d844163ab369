/**
 * A server that cannot take its port says so in one line, naming the port and the flag that
 * changes it, instead of Node's stack trace: the commands print it and exit 1.
 */

/** The one-line reason a listen failed, or null when it is not a listen failure we can name. */
export function listenFailure(error: unknown, where: { host: string; port: number; flag: string; what: string }): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const at = `${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}`;
  if (code === 'EADDRINUSE') return `${where.what}: port ${where.port} is already in use (${at}); pick another with ${where.flag} N (0 picks a free one).`;
  if (code === 'EACCES') return `${where.what}: not allowed to listen on port ${where.port} (${at}); pick another with ${where.flag} N (ports below 1024 need privileges).`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `${where.what}: cannot listen on ${at}: no such address on this machine; pick another with --host.`;
  return null;
}
