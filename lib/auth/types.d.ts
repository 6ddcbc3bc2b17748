import "next-auth/jwt";

declare module "next-auth/jwt" {
  interface JWT {
    /** Our users.id. */
    uid?: number;
    /** The dashboard session (dashboard_sessions) this cookie belongs to. */
    sid?: string;
  }
}
