import { handlers } from "@/lib/auth/next-auth";
import { otherMethods } from "@/lib/http/methods";

export const { GET, POST } = handlers;

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
