// The plans page. Its plans, checkout and portal are built in the billing issue.
export default function SubscribePage() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">Choose Your Plan</h1>
    </main>
  );
}
