/**
 * What start-up is doing, said as it starts each step (docs/outages.md#start-up: a new user does not wait in silence),
 * and how long each took, for the line that says the database is ready.
 */
export class StartUpSteps {
  private readonly startedAt = performance.now();
  private current: { name: string; at: number } | null = null;
  private readonly took: string[] = [];

  constructor(private readonly say: (line: string) => void = console.log) {}

  /** Ends the step before, then says `skillgate: <line>…`. */
  begin(name: string, line: string): void {
    this.end();
    this.say(`skillgate: ${line}…`);
    this.current = { name, at: performance.now() };
  }

  /** "4.3 s: opening 2.9 s, migrating 1.0 s, …", the steps in the order they ran. */
  summary(): string {
    this.end();
    return `${seconds(performance.now() - this.startedAt)} s: ${this.took.join(", ")}`;
  }

  private end(): void {
    if (this.current) this.took.push(`${this.current.name} ${seconds(performance.now() - this.current.at)} s`);
    this.current = null;
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
