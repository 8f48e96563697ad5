import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "../src/http/admin.js";
import { ConversationIds } from "../src/http/conversations.js";

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1", "localhost."])("%s is the loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(["0.0.0.0", "::", "192.168.0.10", "mal.example", "127.0.0.1.mal.example", "localhost.mal.example", "evil-localhost", ""])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("ConversationIds", () => {
  it("recognises the ids it issued, and no other: forged, tampered, made up or another process's", () => {
    const ids = new ConversationIds();
    const issued = Array.from({ length: 200 }, () => ids.issue());
    expect(new Set(issued).size).toBe(200);
    for (const id of issued) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{44}$/);
      expect(ids.issued(id)).toBe(true);
    }
    const id = issued[0]!;
    for (let at = 0; at < id.length; at++) {
      const flipped = id.slice(0, at) + (id[at] === "A" ? "B" : "A") + id.slice(at + 1);
      expect(ids.issued(flipped), `position ${at}`).toBe(false);
    }
    expect(ids.issued(id.slice(0, 22) + issued[1]!.slice(22))).toBe(false);
    for (const other of ["alice", "", id.slice(0, 43), `${id}A`, id.toLowerCase()]) expect(ids.issued(other)).toBe(false);
    expect(new ConversationIds().issued(id)).toBe(false);
  });
});
