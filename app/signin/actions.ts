"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth/next-auth";
import { safeCallbackPath } from "@/lib/auth/callback";
import { signInRefusal, SIGN_IN_FAILED } from "@/lib/auth/password-sign-in";

/** Signs in and goes on to the page asked for; a refusal comes back as the sentence to show, so the form keeps what was typed. */
export async function signInWithPassword(_previous: string | null, formData: FormData): Promise<string | null> {
  const callbackUrl = safeCallbackPath(String(formData.get("callbackUrl") ?? "/"));
  try {
    await signIn("credentials", {
      email: String(formData.get("email") ?? ""),
      password: String(formData.get("password") ?? ""),
      redirectTo: callbackUrl,
    });
  } catch (error) {
    // A successful sign-in "throws" Next's redirect; only Auth.js errors are failures.
    if (error instanceof CredentialsSignin) return signInRefusal(error.code);
    if (error instanceof AuthError) return SIGN_IN_FAILED;
    throw error;
  }
  return null;
}

export async function signInWithGithub(formData: FormData): Promise<void> {
  await signIn("github", { redirectTo: safeCallbackPath(String(formData.get("callbackUrl") ?? "/")) });
}
