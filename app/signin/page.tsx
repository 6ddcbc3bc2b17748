import type { Metadata } from "next";
import Image from "next/image";
import { signInMethod } from "@/lib/auth/next-auth";
import { safeCallbackPath } from "@/lib/auth/callback";
import { signInWithGithub, signInWithPassword } from "./actions";
import { throttledText } from "@/lib/auth/password-sign-in";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That email and password do not match an account.",
  NoTeam: "This account is not a member of any team yet. Ask a team lead to add it.",
};

/** The sign-in refused for too many failures (`code=throttled-<seconds>`): say when to try again. */
function throttledMessage(code: string | undefined): string | null {
  const seconds = Number(/^throttled-(\d{1,6})$/.exec(code ?? "")?.[1]);
  return seconds ? throttledText(seconds) : null;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl ?? "/");
  const error = params.error ? (throttledMessage(params.code) ?? ERRORS[params.error] ?? "Sign-in failed. Try again.") : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-6 flex items-center gap-2">
          <Image src="/favicon.svg" alt="" width={32} height={32} loading="eager" className="h-8 w-8" />
          <h1 className="text-xl font-semibold">Sign in to Skillgate</h1>
        </div>
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
          <form action={signInWithPassword} className="space-y-4">
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <label className="block text-sm font-medium">
              Email
              <input
                name="email"
                type="email"
                required
                autoComplete="username"
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="block text-sm font-medium">
              Password
              <input
                name="password"
                type="password"
                required
                autoComplete="current-password"
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
              />
            </label>
            <button type="submit" className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600">
              Sign in
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
