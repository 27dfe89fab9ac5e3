// The dashboard's profile card: 'View Profile' lists every profile field, 'Update Profile' hosts
// the configuration form in update mode.
import type { Account } from '@domain/account';
import type { ProfileTextField } from '@domain/onboarding';
import { podcastLanguages } from '@domain/podcast-languages';
import { attachmentOf, isBlank, type AttachmentState, type BrandAssetSlot, type ProfileRecord } from '@domain/profile-record';
import { lazy, Suspense, useState, type KeyboardEvent, type ReactNode } from 'react';
import { LabelList, type LabelledValue } from '@/components/label-list';
import { useCurrentAccount } from '@/lib/current-account';
import { useProfileRecord } from '@/lib/profile-record';
import { fieldLabels, texts } from '../texts';

// The form (and react-hook-form with it) loads when the Update tab opens: the dashboard's first
// load shows the View tab only.
const ConfigurationForm = lazy(() =>
  import('./configuration-form').then((module) => ({ default: module.ConfigurationForm })),
);

const t = texts.card;
const tabs = ['view', 'update'] as const;
type Tab = (typeof tabs)[number];

function Badge({ children }: { children: ReactNode }) {
  return <span className="badge badge-outline badge-primary h-auto max-w-full">{children}</span>;
}

function Value({ value }: { value: string | null | undefined }) {
  if (isBlank(value)) return <span className="text-base-content/60">{t.notProvided}</span>;
  if (value!.trim().toLowerCase() === 'provided') return <Badge>{t.provided}</Badge>;
  return <span className="whitespace-pre-line break-words">{value}</span>;
}

function FileValue({ file }: { file: AttachmentState | undefined }) {
  if (!file?.exists) return <span className="text-base-content/60">{t.notProvided}</span>;
  return <Badge>{file.filename ?? t.provided}</Badge>;
}

function ColorValue({ value }: { value: string | null }) {
  if (isBlank(value)) return <Value value={null} />;
  return (
    <span className="inline-flex items-center gap-2">
      <span
        className="inline-block h-5 w-5 rounded border border-base-300"
        style={{ backgroundColor: `#${value}` }}
        aria-hidden="true"
      />
      <span className="font-mono">#{value!.toUpperCase()}</span>
    </span>
  );
}

const languageLabel = (code: string | null) =>
  podcastLanguages.find((language) => language.value === code)?.label ?? code;


function ProfileView({ record }: { record: ProfileRecord }) {
  const text = (field: ProfileTextField, required = false): LabelledValue => [
    `${fieldLabels[field]}${required ? '*' : ''}`,
    <Value value={record[field]} />,
  ];
  const file = (slot: BrandAssetSlot, required = false): LabelledValue => [
    `${fieldLabels[slot]}${required ? '*' : ''}`,
    <FileValue file={attachmentOf(record, slot)} />,
  ];
  const color = (field: 'brandColorPrimary' | 'brandColorSecondary' | 'brandColorTertiary'): LabelledValue => [
    fieldLabels[field],
    <ColorValue value={record[field]} />,
  ];
  const groups: readonly { title: string; rows: readonly LabelledValue[] }[] = [
    {
      title: t.accountInfo,
      rows: [[fieldLabels.emailAddress, <Value value={record.emailAddress} />], text('firstName'), text('lastName')],
    },
    {
      title: t.brandAssets,
      rows: [
        text('brandFont'),
        color('brandColorPrimary'),
        color('brandColorSecondary'),
        color('brandColorTertiary'),
        file('logo'),
      ],
    },
    { title: t.clips, rows: [file('videoIntro'), file('videoOutro'), file('clipIntro'), file('clipOutro')] },
    {
      title: t.podcastDetails,
      rows: [
        text('podcastTitle', true),
        text('podcastDescription', true),
        text('podcastAuthor', true),
        file('podcastCover', true),
        text('podcastPrimaryCategory'),
        text('podcastSecondaryCategory'),
        text('podcastCopyright'),
        text('podcastKeywords'),
        text('podcastWebsite'),
        [fieldLabels.podcastLanguage, <Value value={languageLabel(record.podcastLanguage)} />],
        text('podcastTimezone'),
      ],
    },
  ];
  return (
    <div className="flex flex-col gap-5">
      {groups.map(({ title, rows }) => (
        <section key={title} className="flex flex-col gap-1">
          <h3 className="text-lg font-semibold">{title}</h3>
          <LabelList rows={rows} />
        </section>
      ))}
      {record.lastUpdated && (
        <p className="text-sm text-base-content/70">{t.lastUpdated(new Date(record.lastUpdated).toLocaleString())}</p>
      )}
    </div>
  );
}

function CardBody({ account, tab, setTab }: { account: Account; tab: Tab; setTab: (tab: Tab) => void }) {
  const { data: record, isPending, isError } = useProfileRecord();
  if (isPending) return <p role="status">{t.loading}</p>;
  if (isError) return <p role="alert">{t.loadFailed}</p>;
  if (tab === 'update') {
    return (
      <Suspense fallback={<p role="status">{t.loading}</p>}>
        <ConfigurationForm mode="update" account={account} record={record} onSaved={() => setTab('view')} />
      </Suspense>
    );
  }
  if (!record) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p>{t.empty}</p>
        <button type="button" className="btn btn-primary" onClick={() => setTab('update')}>
          {t.completeProfile}
        </button>
      </div>
    );
  }
  return <ProfileView record={record} />;
}

export function ProfileCard() {
  const { data: account } = useCurrentAccount();
  const [tab, setTab] = useState<Tab>('view');
  if (!account) return null;
  // The WAI-ARIA tabs pattern: Left/Right move to the previous/next tab (wrapping), Home/End to
  // the first/last, and the tab reached is selected and focused.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.indexOf(tab);
    const target = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    setTab(next);
    document.getElementById(`profile-tab-${next}`)?.focus();
  };
  return (
    <section className="card bg-base-100 shadow" aria-labelledby="profile-card-title">
      <div className="card-body gap-4">
        <h2 id="profile-card-title" className="card-title">
          {t.title}
        </h2>
        <div role="tablist" aria-label={t.title} className="flex w-fit gap-2" onKeyDown={onTabKey}>
          {tabs.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`profile-tab-${id}`}
              aria-selected={tab === id}
              aria-controls="profile-tab-panel"
              // Roving tabindex: Tab reaches the selected tab only; the arrow keys move between them.
              tabIndex={tab === id ? 0 : -1}
              className={`btn btn-sm ${tab === id ? 'btn-primary' : 'btn-outline'}`}
              onClick={() => setTab(id)}
            >
              {id === 'view' ? t.viewTab : t.updateTab}
            </button>
          ))}
        </div>
        <div role="tabpanel" id="profile-tab-panel" aria-labelledby={`profile-tab-${tab}`}>
          <CardBody account={account} tab={tab} setTab={setTab} />
        </div>
      </div>
    </section>
  );
}
