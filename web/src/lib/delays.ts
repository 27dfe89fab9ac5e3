// Redirect delays of spec section 9.
export const delays = {
  afterLoginMs: 100,
  authRefreshAfterRegisterMs: 500,
  afterOnboardingMs: 500,
  unauthorizedDashboardMs: 500,
  notFoundMs: 1000,
} as const;

export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
