"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/auth/next-auth";
import { safeCallbackPath } from "@/lib/auth/callback";

export async function signInWithPassword(formData: FormData): Promise<void> {
  const callbackUrl = safeCallbackPath(String(formData.get("callbackUrl") ?? "/"));
  try {
    await signIn("credentials", {
      email: String(formData.get("email") ?? ""),
      password: String(formData.get("password") ?? ""),
      redirectTo: callbackUrl,
    });
  } catch (error) {
    // A successful sign-in "throws" Next's redirect; only Auth.js errors are failures.
    if (error instanceof AuthError) {
      const code = error instanceof CredentialsSignin ? `&code=${encodeURIComponent(error.code)}` : "";
      redirect(`/signin?error=CredentialsSignin${code}&callbackUrl=${encodeURIComponent(callbackUrl)}`);
    }
    throw error;
  }
}

export async function signInWithGithub(formData: FormData): Promise<void> {
  await signIn("github", { redirectTo: safeCallbackPath(String(formData.get("callbackUrl") ?? "/")) });
}
