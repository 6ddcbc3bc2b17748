import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** A real SMTP server on a free port: what nodemailer delivers, parsed as a mail client would; `refuse` bounces a recipient. */
export function startSmtp(refuse: (recipient: string) => boolean = () => false) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(refuse(address.address) ? Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }) : undefined);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          received.push({ from: mail.from?.text ?? "", to: to?.text ?? "", subject: mail.subject ?? "", text: mail.text ?? "" });
          callback();
        })
        .catch(callback);
    },
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
