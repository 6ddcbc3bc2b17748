export function initWithoutTeam(source: Record<string, string | undefined>): string | null;
