import type { Metadata } from "next";
import Image from "next/image";
import { signInMethod } from "@/lib/auth/next-auth";
import { safeCallbackPath } from "@/lib/auth/callback";
import { signInWithGithub, signInWithPassword } from "./actions";
import { signInRefusal, SIGN_IN_FAILED } from "@/lib/auth/password-sign-in";
import { SignInForm } from "@/components/sign-in-form";
import { CONSENT_PAGE } from "@/lib/http/oauth-paths";

export const metadata: Metadata = { title: "Sign in" };

/** Errors that arrive in the address: from Auth.js (GitHub) and from pages that send a person here. */
const ERRORS: Record<string, string> = {
  NoTeam: "This account is not a member of any team yet. Ask a team lead to add it.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl ?? "/");
  const error = params.error
    ? params.error === "CredentialsSignin"
      ? signInRefusal(params.code)
      : (ERRORS[params.error] ?? SIGN_IN_FAILED)
    : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-6 flex items-center gap-2">
          <Image src="/favicon.svg" alt="" width={32} height={32} loading="eager" className="h-8 w-8" />
          <h1 className="text-xl font-semibold">Sign in to Skillgate</h1>
        </div>
        {callbackUrl.startsWith(`${CONSENT_PAGE}?`) && (
          <p data-testid="sign-in-purpose" className="mb-4 text-sm text-slate-600">
            An MCP client asks to connect as you: sign in, then choose the team and what it may do.
          </p>
        )}
        {error && (
          <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        {signInMethod() === "github" ? (
          <form action={signInWithGithub}>
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <button className="w-full rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700">
              Sign in with GitHub
            </button>
          </form>
        ) : (
          <SignInForm callbackUrl={callbackUrl} action={signInWithPassword} />
        )}
      </div>
    </main>
  );
}
