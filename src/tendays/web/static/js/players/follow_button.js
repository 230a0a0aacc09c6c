// A signed-in visitor's Follow / Unfollow button on a profile: the people one follows are listed, with who is
// online and who is playing, on /following. Nothing shows to an anonymous visitor, nor on one's own profile.

import { sentence } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { api, ApiError } from "../shared/rest.js";

const $ = (id) => document.getElementById(id);

let player = null; // the name of the profile shown
let following = false;
let wired = false;

function showFollowing() {
  $("follow-toggle").textContent = t(following ? "follow.unfollow" : "follow.follow");
  $("follow-toggle").setAttribute("aria-pressed", String(following));
}

async function toggleFollow() {
  const button = $("follow-toggle");
  button.disabled = true;
  try {
    const answer = await api(`/api/following/${encodeURIComponent(player)}`, { method: following ? "DELETE" : "PUT" });
    following = answer.following;
    $("follow-said").textContent = t(following ? "follow.followed" : "follow.unfollowed", { name: answer.name });
  } catch (error) {
    $("follow-said").textContent = sentence(error instanceof ApiError ? error.message : String(error));
  } finally {
    button.disabled = false;
    showFollowing();
  }
}

/** Offer the signed-in visitor (`session`, or null) to follow or unfollow the player of `profile`. */
export async function showFollow(profile, session) {
  player = profile.name;
  const part = $("follow");
  if (!session || session.name === profile.name) {
    part.hidden = true;
    return;
  }
  if (!wired) {
    wired = true;
    $("follow-toggle").addEventListener("click", toggleFollow);
  }
  try {
    const mine = await api("/api/following");
    following = mine.following.some((p) => p.name === profile.name);
  } catch {
    following = false; // the button then says "Follow"; the server answers the click in words
  }
  showFollowing();
  part.hidden = false;
}
