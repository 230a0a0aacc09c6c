// The table's talk of the replayed game, as it was written (a notice in the reader's language).

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { ChatKind } from "../shared/protocol.js";

export function showChat(lines) {
  const node = document.getElementById("chat");
  if (!lines.length) {
    node.replaceChildren(el("li", { class: "muted" }, t("chat.none")));
    return;
  }
  node.replaceChildren(...lines.map((line) => (line.kind === ChatKind.NOTICE
    ? el("li", { class: "chat-notice" }, line.text)
    : el("li", {}, el("strong", {}, `${line.name}: `), line.text))));
}
