// The REST client: one call to the server's API, its answer decoded, a refusal thrown in the server's words.

import { csrfHeaders, sessionChanged } from "./account_session.js";
import { currentLanguage, t } from "./i18n.js";

/** An error answered by the server, with its message in the game's words. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function detailText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d && d.msg ? `${(d.loc || []).slice(1).join(".")}: ${d.msg}` : String(d))).join("; ");
  }
  return detail ? JSON.stringify(detail) : "";
}

/** Call the REST API; returns the decoded JSON (null for an empty answer) or throws an ApiError whose message
 * is the server's. `headers`: more request headers (a signed-in session's X-CSRF-Token). */
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const csrf = method === "GET" ? {} : await csrfHeaders(); // a signed-in browser's changes carry its token
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "Accept-Language": currentLanguage(), ...csrf, ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("api.unreachable"));
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    if (response.status === 403 && method !== "GET" && await sessionChanged()) {
      throw new ApiError(403, t("api.session_changed"));
    }
    const text = detailText(data && (data.detail ?? data.message));
    throw new ApiError(response.status, text || t("api.status", { status: response.status, text: response.statusText }));
  }
  return data;
}
