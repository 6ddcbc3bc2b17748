/** The "ops" team of the operation tests (tests/servers and tests/browser operations.test.ts): its admin key and its lead. */
export const OPS_KEY = "sg_operations_test_key_00000000001";
export const OPS_LOGIN = { email: "ops@skillgate.test", password: "operations-password" };

/** A built server's start-up variables for the "ops" team, its key and its lead, on the given database. */
export function opsOn(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SKILLGATE_DEMO: "0",
    SKILLGATE_INIT_TEAM: "ops",
    SKILLGATE_INIT_API_KEY: OPS_KEY,
    SKILLGATE_INIT_USER_EMAIL: OPS_LOGIN.email,
    SKILLGATE_INIT_USER_PASSWORD: OPS_LOGIN.password,
  };
}
