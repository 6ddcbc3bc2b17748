export function buildIfNeeded(root?: string): boolean;
