// Ids of the reference services' rows are uuids, opaque to clients. A text that is not even a uuid
// names nothing: the services answer "not found" for it rather than let PostgreSQL refuse the query
// (a 500). One check for every service.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` is written as a uuid (any version; PostgreSQL's `uuid` type accepts it). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}
