import type { Metadata } from "next";
import { connection } from "next/server";
import NextTopLoader from "nextjs-toploader";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Skillgate", template: "%s · Skillgate" },
  description: "Where a team's agent skills live: served, measured and improved from evidence.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so its scripts carry that response's CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        {/* A bar across the top while the next page loads: the cue a click was taken (issue 13). */}
        <NextTopLoader color="#4f46e5" height={3} showSpinner={false} />
        {children}
      </body>
    </html>
  );
}
