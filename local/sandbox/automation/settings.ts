// The automation webhook settings of the local stack, from config.env with local defaults;
// `automationFunctionEnv` is what the Edge Functions get (the test profile's sandbox port
// differs from `.env.example`'s, so tests always use their own receiver).
import type { StackConfig } from '../../config.ts';

interface AutomationSettings {
  webhookUrl: string;
  secret: string;
}

export function automationSettings(config: StackConfig): AutomationSettings {
  const configured = config.env.AUTOMATION_WEBHOOK_URL;
  const sandboxUrl = `${config.urls.sandbox}/automation/webhook`;
  return {
    webhookUrl: config.profile === 'test' || !configured ? sandboxUrl : configured,
    secret: config.env.AUTOMATION_WEBHOOK_SECRET || 'whsec_automation_local',
  };
}

export function automationFunctionEnv(config: StackConfig): Record<string, string> {
  const s = automationSettings(config);
  return { AUTOMATION_WEBHOOK_URL: s.webhookUrl, AUTOMATION_WEBHOOK_SECRET: s.secret };
}
