import "next-auth/jwt";

declare module "next-auth/jwt" {
  interface JWT {
    /** Our users.id. */
    uid?: number;
  }
}
