// What a promise that must fail failed with: for asserting on an error's fields after the fact (`expect(…).to.be
// .rejected` would need chai-as-promised, and a try/catch in every test hides a promise that resolves).

/** The error `promise` rejects with; throws when it resolves instead. */
export async function rejectionOf<T = unknown>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (error) {
    return error as T;
  }
  throw new Error('expected a rejection');
}
