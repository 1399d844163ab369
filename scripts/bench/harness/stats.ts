/** Small statistics and number formats shared by the benchmarks. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  // Halves added, not a halved sum: two samples near Number.MAX_VALUE would overflow to Infinity.
  return sorted.length % 2 ? sorted[mid]! : sorted[mid - 1]! / 2 + sorted[mid]! / 2;
}

/** The p-th percentile (0–100) of values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** 0.873 → "87%". */
export const pct = (x: number): string => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '–');
/** 12345 → "12.3k", 850 → "850". */
export const kilo = (x: number): string => {
  if (!Number.isFinite(x)) return '–';
  return x < 1000 ? `${Math.round(x)}` : `${(x / 1000).toFixed(1)}k`;
};
/** A duration in ms with a precision that suits its size. */
export const ms = (x: number): string => {
  if (!Number.isFinite(x)) return '–';
  if (x < 1) return `${x.toFixed(3)} ms`;
  if (x < 10) return `${x.toFixed(2)} ms`;
  return `${x.toFixed(1)} ms`;
};
/** A ratio: 0.4567 → "0.46×". */
export const times = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '–');
/** Bytes in the unit that reads best. */
export const bytes = (x: number): string => {
  if (!Number.isFinite(x)) return '–';
  if (Math.abs(x) < 10_000) return `${Math.round(x)} B`;
  if (Math.abs(x) < 10_000_000) return `${(x / 1024).toFixed(1)} KiB`;
  return `${(x / 1024 / 1024).toFixed(1)} MiB`;
};
