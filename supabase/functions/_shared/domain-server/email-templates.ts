// The one set of e-mail templates (issue 43, item 1): each kind is a message (subject, heading,
// paragraphs, links), and one layout renders every message as HTML and as text, with the product's
// name, and a footer that carries the unsubscribe link of the kinds one may unsubscribe from.
// Pure: the sender passes the outbox row's data and the links.
import { z } from 'zod';
import { isProviderId, providerLabel } from '../domain/connection-status.ts';
import { emailKindDescriptions, isEssentialEmailKind, PRODUCT_NAME, type EmailKind } from '../domain/email.ts';
import { escapeHtml } from '../domain/markdown.ts';
import { PLAN_TIERS } from '../domain/plans.ts';
import { PERMANENT_FAILURE_ADVICE } from '../domain/processing.ts';
import { REVIEW_HOLDS, reviewHoldReasons } from '../domain/review.ts';

/** What the outbox row's data may hold (the SQL triggers write it); every field is optional. */
export const emailDataSchema = z.object({
  firstName: z.string().nullish(),
  episodeId: z.string().nullish(),
  title: z.string().nullish(),
  driveFolderUrl: z.string().nullish(),
  hold: z.enum(REVIEW_HOLDS).nullish(),
  dueAt: z.string().nullish(),
  reason: z.string().nullish(),
  permanent: z.boolean().nullish(),
  provider: z.string().nullish(),
  limit: z.number().nullish(),
  tier: z.string().nullish(),
});
export type EmailData = z.infer<typeof emailDataSchema>;

export interface EmailLinks {
  /** The SPA's address, without a trailing slash. */
  siteUrl: string;
  /** The signed unsubscribe page of this kind (null for the essential kinds). */
  unsubscribeUrl: string | null;
}

interface Message {
  subject: string;
  heading: string;
  paragraphs: string[];
  links: Array<{ label: string; url: string }>;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const episodeName = (data: EmailData) => `"${data.title?.trim() || 'Your episode'}"`;

/** '29 November 2026 at 10:00 UTC' */
function utcTime(at: string): string {
  const date = new Date(at);
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day} at ${time} UTC`;
}

function episodeLinks(data: EmailData, siteUrl: string, pageLabel: string): Message['links'] {
  const links = data.episodeId ? [{ label: pageLabel, url: `${siteUrl}/episodes/${encodeURIComponent(data.episodeId)}` }] : [];
  if (data.driveFolderUrl && /^https?:\/\//.test(data.driveFolderUrl)) links.push({ label: 'Open the Google Drive folder', url: data.driveFolderUrl });
  return links;
}

/** Why a delivered episode waits for the subscriber, in plain words. */
function reviewParagraph(data: EmailData): string {
  if (data.hold) return `${reviewHoldReasons[data.hold]} Nothing is posted before you approve it.`;
  if (data.dueAt) return `Nothing is posted before ${utcTime(data.dueAt)}, when posting starts by itself, unless you approve it sooner.`;
  return 'Nothing is posted before you approve it.';
}

function allowanceParagraph(data: EmailData): string {
  return data.tier === PLAN_TIERS.at(-1)
    ? 'You are on our largest plan: buy one more episode for this month from your dashboard, or contact sales about Enterprise.'
    : 'Upgrade your plan from your dashboard to submit more episodes, or wait until next month.';
}

function message(kind: EmailKind, data: EmailData, siteUrl: string): Message {
  const dashboard = { label: 'Open your dashboard', url: `${siteUrl}/dashboard` };
  const name = episodeName(data);
  switch (kind) {
    case 'submission_received':
      return {
        subject: `We received ${name}`,
        heading: 'Your episode is in',
        paragraphs: [
          `We received ${name} and it is queued for processing. Processing typically takes 5-15 minutes depending on video length.`,
          'We will e-mail you again when it is ready.',
        ],
        links: episodeLinks(data, siteUrl, 'Follow its progress'),
      };
    case 'ready_for_review':
      return {
        subject: `${name} is ready for your review`,
        heading: 'Ready for your review',
        paragraphs: [`${name} is processed: the episode, its clips, captions and show notes are in your Google Drive.`, reviewParagraph(data)],
        links: episodeLinks(data, siteUrl, 'Review and approve'),
      };
    case 'delivered':
      return {
        subject: `${name} is delivered`,
        heading: 'Your episode is delivered',
        paragraphs: [
          `${name} is processed: the episode, its clips, captions and show notes are in your Google Drive.`,
          'With "Post automatically" on, its clips are posted on schedule to the platforms you connected; the episode page shows the calendar.',
        ],
        links: episodeLinks(data, siteUrl, 'Open the episode page'),
      };
    case 'failed':
      return {
        subject: `${name} could not be processed`,
        heading: 'Processing failed',
        paragraphs: [
          `We could not process ${name}.`,
          `The reason: ${data.reason?.trim() || 'processing stopped with an error.'}`,
          data.permanent
            ? PERMANENT_FAILURE_ADVICE
            : 'This can be a passing problem: open the episode page and press Retry. If it fails again, contact Castloop support.',
        ],
        links: episodeLinks(data, siteUrl, 'Open the episode page'),
      };
    case 'hosting_ready':
      return {
        subject: 'Your podcast hosting is ready',
        heading: 'Your podcast hosting is ready',
        paragraphs: ['Your podcast hosting is set up, so you can submit episodes now.', 'Open your dashboard and choose Submit New Episode to send your first one.'],
        links: [dashboard],
      };
    case 'reconnect': {
      const label = data.provider && isProviderId(data.provider) ? providerLabel(data.provider) : 'a connection';
      return {
        subject: `Reconnect ${label} to keep ${PRODUCT_NAME} working`,
        heading: `${label} needs reconnecting`,
        paragraphs: [
          `${PRODUCT_NAME} can no longer reach your ${label} account: its access was refused or has expired.`,
          data.provider === 'google'
            ? 'Episodes cannot be submitted or delivered to your Google Drive until you reconnect it.'
            : `Nothing is posted to ${label} until you reconnect it.`,
          'Reconnect it in Social Media Connections on your dashboard.',
        ],
        links: [{ label: `Reconnect ${label}`, url: `${siteUrl}/dashboard` }],
      };
    }
    case 'allowance_reached':
      return {
        subject: "You have used this month's episodes",
        heading: "This month's episodes are used",
        paragraphs: [
          `You have used all ${data.limit == null ? 'the' : `${data.limit} of`} this month's episodes.`,
          allowanceParagraph(data),
        ],
        links: [dashboard],
      };
  }
}

function footerLines(kind: EmailKind, links: EmailLinks): { text: string; unsubscribe: string | null } {
  if (isEssentialEmailKind(kind) || !links.unsubscribeUrl) {
    return { text: `${PRODUCT_NAME} always sends this e-mail: it is about your account and your episodes.`, unsubscribe: null };
  }
  return { text: `You receive this e-mail because ${emailKindDescriptions[kind]}.`, unsubscribe: links.unsubscribeUrl };
}

function htmlOf(content: Message, greeting: string, footer: ReturnType<typeof footerLines>): string {
  const paragraph = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`;
  const button = (link: Message['links'][number]) =>
    `<p style="margin:0 0 12px"><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#1e3a5f;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(link.label)}</a></p>`;
  const unsubscribe = footer.unsubscribe
    ? ` <a href="${escapeHtml(footer.unsubscribe)}" style="color:#475569">Unsubscribe from these e-mails</a>.`
    : '';
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f1f5f9;font-family:Helvetica,Arial,sans-serif;color:#0f172a">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">',
    `<p style="margin:0 0 16px;font-size:20px;font-weight:700;color:#1e3a5f">${PRODUCT_NAME}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(content.heading)}</h1>`,
    paragraph(greeting),
    ...content.paragraphs.map(paragraph),
    ...content.links.map(button),
    `<p style="margin:24px 0 0;font-size:12px;color:#475569">${escapeHtml(footer.text)}${unsubscribe}</p>`,
    '</div></body></html>',
  ].join('\n');
}

function textOf(content: Message, greeting: string, footer: ReturnType<typeof footerLines>): string {
  return [
    PRODUCT_NAME,
    '',
    content.heading,
    '',
    greeting,
    '',
    ...content.paragraphs.flatMap((line) => [line, '']),
    ...content.links.map((link) => `${link.label}: ${link.url}`),
    '',
    '--',
    footer.text,
    ...(footer.unsubscribe ? [`Unsubscribe from these e-mails: ${footer.unsubscribe}`] : []),
  ].join('\n');
}

export function renderEmail(kind: EmailKind, data: EmailData, links: EmailLinks): RenderedEmail {
  const content = message(kind, data, links.siteUrl);
  const greeting = data.firstName?.trim() ? `Hi ${data.firstName.trim()},` : 'Hi,';
  const footer = footerLines(kind, links);
  return { subject: content.subject, html: htmlOf(content, greeting, footer), text: textOf(content, greeting, footer) };
}
