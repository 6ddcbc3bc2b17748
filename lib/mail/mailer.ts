import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

/** One plain-text message. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; a rejection says why it could not. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer: `smtp://user:pass@host:587` (STARTTLS when the server offers it) or
 * `smtps://…:465`. Short timeouts: a person waits on the invite form while it sends.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const options: SMTPTransport.Options = { url, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 };
  const transport = nodemailer.createTransport(options);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
