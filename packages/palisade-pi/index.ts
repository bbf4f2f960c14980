/**
 * palisade-pi: Palisade as pi's guardrails.
 *
 * - gates pi's own `tool_call` events (block, ask, or rewrite the call's
 *   input) and `tool_result` events (withhold or redact the output);
 * - answers the guardrails check protocol on pi's event bus:
 *   `guardrails:check` → `guardrails:decision`;
 * - joins pi-guardrails' escalate-only classifier contract
 *   (`guardrails:classify:request`, `:check`, `:decision`).
 *
 * Decisions come from a long-lived `palisade events` child process (JSON
 * lines, matched by `requestId`) or, with PALISADE_URL, from a running
 * service (`POST /v1/check`). When Palisade does not answer in time, tool
 * calls that write, delete or run something are blocked and reads go on.
 *
 * A service's `ask` carries an approval bound to the exact call: with pi's
 * UI and PALISADE_APPROVER_KEY (a key with the `guardrails:approve` scope),
 * the person's yes approves it at the service and the call is checked again
 * under it, running only if the service lets it through; otherwise the call
 * is blocked with where to approve it, and its retry (sent with
 * `options.approvalByCall`) passes once approved.
 *
 * Settings (environment): PALISADE_BIN (default `palisade`),
 * PALISADE_POLICY, PALISADE_CONFIG, PALISADE_URL, PALISADE_API_KEY,
 * PALISADE_APPROVER_KEY, PALISADE_TIMEOUT_MS (default 5000).
 */

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const VERSION = "0.1.0";
const CLASSIFIER_ID = "palisade";

type Kind = "allow" | "block" | "ask" | "modify" | "error";

interface Finding {
	checkId: string;
	type?: string;
	reasonCode?: string;
	name?: string;
	message?: string;
	suggestion?: string;
}

interface Decision {
	requestId: string;
	decision: Kind;
	reasonCode?: string;
	message?: string;
	replacement?: string;
	violations?: Finding[];
	warnings?: Finding[];
	modified?: { arguments?: unknown; output?: unknown; content?: string };
	approval?: Approval;
}

/** What a person can approve (PROTOCOL.md §4.10). */
interface Approval {
	id: string;
	expiresAt: string;
	bound: string;
	url: string;
}

type Request = Record<string, unknown> & { requestId: string };

/** One line saying why, from a decision. */
function reason(d: Decision): string {
	const f = d.violations?.[0] ?? d.warnings?.[0];
	if (!f) return `Palisade: ${d.message ?? d.reasonCode ?? "refused by policy"}`;
	let out = `Palisade: ${f.name ?? f.checkId}`;
	if (f.message) out += `: ${f.message}`;
	out += ` [${f.checkId}]`;
	if (f.suggestion) out += `. ${f.suggestion}`;
	return out;
}

/** A client of `palisade events`: one child, requests matched by id. */
class EventsClient {
	private child?: ChildProcessWithoutNullStreams;
	private buffer = "";
	private pending = new Map<string, (d: Decision | Error) => void>();

	constructor(
		private bin: string,
		private args: string[],
	) {}

	private start(): ChildProcessWithoutNullStreams {
		if (this.child && this.child.exitCode === null && !this.child.killed) return this.child;
		const child = spawn(this.bin, ["events", ...this.args], { stdio: ["pipe", "pipe", "pipe"] });
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			this.buffer += chunk;
			let nl = this.buffer.indexOf("\n");
			while (nl >= 0) {
				const line = this.buffer.slice(0, nl);
				this.buffer = this.buffer.slice(nl + 1);
				nl = this.buffer.indexOf("\n");
				if (!line.trim()) continue;
				try {
					const value = JSON.parse(line);
					const d: Decision = value?.event === "guardrails:decision" ? value.data : value;
					this.pending.get(d.requestId)?.(d);
					this.pending.delete(d.requestId);
				} catch {
					// A line that is not a decision is not an answer to anything.
				}
			}
		});
		child.stderr.resume();
		const fail = (why: string) => {
			for (const settle of this.pending.values()) settle(new Error(why));
			this.pending.clear();
			this.buffer = "";
		};
		child.on("error", (e) => fail(`cannot run ${this.bin}: ${e.message}`));
		child.on("exit", (code) => fail(`palisade events exited (${code})`));
		child.stdin.on("error", () => {});
		// The child must not keep pi alive.
		child.unref();
		(child.stdout as unknown as { unref?: () => void }).unref?.();
		(child.stderr as unknown as { unref?: () => void }).unref?.();
		(child.stdin as unknown as { unref?: () => void }).unref?.();
		this.child = child;
		return child;
	}

	decide(request: Request, timeoutMs: number): Promise<Decision> {
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.pending.delete(request.requestId);
				reject(new Error(`no decision within ${timeoutMs} ms`));
			}, timeoutMs);
			this.pending.set(request.requestId, (d) => {
				clearTimeout(timer);
				if (d instanceof Error) reject(d);
				else resolve(d);
			});
			try {
				this.start().stdin.write(`${JSON.stringify(request)}\n`);
			} catch (e) {
				clearTimeout(timer);
				this.pending.delete(request.requestId);
				reject(e instanceof Error ? e : new Error(String(e)));
			}
		});
	}

	close(): void {
		this.child?.stdin.end();
		this.child?.kill();
		this.child = undefined;
	}
}

/** A client of a running service. */
class HttpClient {
	constructor(
		readonly url: string,
		private apiKey?: string,
		private approverKey?: string,
	) {}

	get canApprove(): boolean {
		return Boolean(this.approverKey);
	}

	/** Where an approval is answered, as a full URL. */
	approvalUrl(a: Approval): string {
		return /^https?:\/\//.test(a.url) ? a.url : `${this.url.replace(/\/+$/, "")}${a.url}`;
	}

	/** Answers an approval with the approver key (never the agent's). */
	async answer(id: string, decision: "approve" | "deny", note: string, timeoutMs: number): Promise<void> {
		if (!this.approverKey) throw new Error("no approver key: set PALISADE_APPROVER_KEY");
		const response = await fetch(`${this.url.replace(/\/+$/, "")}/v1/approvals/${encodeURIComponent(id)}`, {
			method: "POST",
			headers: { "content-type": "application/json", authorization: `Bearer ${this.approverKey}` },
			body: JSON.stringify({ decision, note }),
			signal: AbortSignal.timeout(timeoutMs),
		});
		if (response.ok) return;
		const text = await response.text();
		let message = text;
		let code: string | undefined;
		try {
			const err = JSON.parse(text)?.error;
			if (typeof err?.message === "string") message = err.message;
			if (typeof err?.code === "string") code = err.code;
		} catch {
			// Not JSON: the text as it came.
		}
		throw Object.assign(new Error(`approval ${id}: the service answered ${response.status}: ${message}`), {
			status: response.status,
			code,
		});
	}

	async decide(request: Request, timeoutMs: number): Promise<Decision> {
		const headers: Record<string, string> = { "content-type": "application/json" };
		if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
		const response = await fetch(`${this.url.replace(/\/+$/, "")}/v1/check`, {
			method: "POST",
			headers,
			body: JSON.stringify(request),
			signal: AbortSignal.timeout(timeoutMs),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`the service answered ${response.status}: ${text}`);
		return JSON.parse(text) as Decision;
	}

	close(): void {}
}

/** Tools whose calls only read: when Palisade cannot answer, they go on. */
const READS = new Set(["read", "grep", "find", "ls"]);

function readsOnly(toolName: string): boolean {
	if (READS.has(toolName)) return true;
	return /^(read|get|list|search|find|view|ls|cat|glob|grep)([_-]|$)/i.test(toolName);
}

/** The text of a tool result's content. */
function textOf(content: Array<{ type: string; text?: string }>): string {
	return content
		.filter((c) => c.type === "text" && typeof c.text === "string")
		.map((c) => c.text)
		.join("\n");
}

export default function palisade(pi: ExtensionAPI) {
	const env = process.env;
	const timeoutMs = Number(env.PALISADE_TIMEOUT_MS) > 0 ? Number(env.PALISADE_TIMEOUT_MS) : 5000;
	const args: string[] = [];
	if (env.PALISADE_POLICY) args.push("--policy", env.PALISADE_POLICY);
	if (env.PALISADE_CONFIG) args.push("--config", env.PALISADE_CONFIG);
	const client = env.PALISADE_URL
		? new HttpClient(env.PALISADE_URL, env.PALISADE_API_KEY, env.PALISADE_APPROVER_KEY)
		: new EventsClient(env.PALISADE_BIN || "palisade", args);
	const service = client instanceof HttpClient ? client : undefined;

	/** The reason, and with an approval, where a person approves the call. */
	const explain = (d: Decision): string => {
		const why = reason(d);
		const a = d.approval;
		if (!a || !service) return why;
		return (
			`${why.replace(/\.+$/, "")}. A person can approve this exact call: approval ${a.id} (until ${a.expiresAt}), ` +
			`with \`palisade approvals approve ${a.id} --server ${service.url}\` or POST ${service.approvalUrl(a)}; ` +
			"the same call, sent again, then passes once"
		);
	};
	const caller = { extensionId: "palisade-pi", extensionVersion: VERSION };

	const context = (cwd: string | undefined) => {
		const out: Record<string, string> = { home: homedir() };
		if (cwd) {
			out.cwd = cwd;
			out.workspaceRoot = cwd;
		}
		return out;
	};

	// pi's session id: requests of one session make one session for the
	// policy's flow rules (what a tool output brought in, what the user asked).
	const sessionOf = (ctx: { sessionManager?: { getSessionId(): string } }) => {
		try {
			const id = ctx.sessionManager?.getSessionId();
			return typeof id === "string" && id ? { sessionId: id } : {};
		} catch {
			return {};
		}
	};

	const decide = (request: Record<string, unknown>): Promise<Decision> => {
		const withId = { requestId: randomUUID(), caller, ...request } as Request;
		return client.decide(withId, timeoutMs);
	};

	// The user's own words: what a flow rule trusts. Recorded, and refused
	// only when the policy blocks the prompt itself.
	pi.on("input", async (event, ctx) => {
		if (event.source === "extension" || !event.text) return { action: "continue" };
		try {
			const d = await decide({ stage: "input", content: event.text, ...sessionOf(ctx), context: context(ctx.cwd) });
			if (d.decision === "block") {
				if (ctx.hasUI) ctx.ui.notify(reason(d), "error");
				return { action: "handled" };
			}
		} catch {
			// A prompt is the user's own: it is not held back when Palisade
			// cannot be reached (tool calls and results still are).
		}
		return { action: "continue" };
	});

	// pi's own tool calls.
	pi.on("tool_call", async (event, ctx) => {
		const request: Record<string, unknown> = {
			...sessionOf(ctx),
			stage: "tool_use",
			tool: { name: event.toolName, arguments: event.input, callId: event.toolCallId },
			context: context(ctx.cwd),
			// A service finds a call approved out of band by the call itself.
			options: service ? { interactive: ctx.hasUI, approvalByCall: true } : { interactive: ctx.hasUI },
		};
		let d: Decision;
		try {
			d = await decide(request);
		} catch (e) {
			if (readsOnly(event.toolName)) return undefined;
			return {
				block: true,
				reason: `Palisade could not check this call, so it is blocked: ${(e as Error).message}`,
			};
		}
		switch (d.decision) {
			case "allow":
				return undefined;
			case "modify": {
				const args = d.modified?.arguments;
				if (args && typeof args === "object" && !Array.isArray(args)) {
					const input = event.input as Record<string, unknown>;
					for (const key of Object.keys(input)) delete input[key];
					Object.assign(input, args);
					return undefined;
				}
				return { block: true, reason: `${reason(d)} (the change cannot be applied, so the call is blocked)` };
			}
			case "ask": {
				const approval = d.approval;
				if (service && approval) {
					// The service's approval: only the approver key answers it,
					// and the service says whether this exact call may run.
					if (!ctx.hasUI || !service.canApprove) {
						if (ctx.hasUI) ctx.ui.notify(explain(d), "warning");
						return { block: true, reason: explain(d) };
					}
					const ok = await ctx.ui.confirm(
						"Palisade",
						`${reason(d)}\n\nApproval ${approval.id} (until ${approval.expiresAt}). Run it anyway?`,
					);
					try {
						await service.answer(approval.id, ok ? "approve" : "deny", ok ? "approved in pi" : "rejected in pi", timeoutMs);
					} catch (e) {
						const err = e as Error & { status?: number };
						// Answered already (out of band, say): the check below decides.
						if (!(ok && err.status === 409)) {
							return { block: true, reason: `${ok ? "Approved" : "Rejected"} in pi, but ${err.message}. ${reason(d)}` };
						}
					}
					if (!ok) return { block: true, reason: `Rejected in pi: approval ${approval.id} denied. ${reason(d)}` };
					let again: Decision;
					try {
						again = await decide({ ...request, approvalId: approval.id });
					} catch (e) {
						return { block: true, reason: `Palisade could not check the approved call, so it is blocked: ${(e as Error).message}` };
					}
					if (again.decision === "allow") return undefined;
					const notes = (again.warnings ?? []).filter((f) => f.type === "approval" && f.message).map((f) => f.message);
					return {
						block: true,
						reason: `The approval did not let this call through${notes.length ? `: ${notes.join("; ")}` : ""}. ${reason(again)}`,
					};
				}
				if (ctx.hasUI) {
					const ok = await ctx.ui.confirm("Palisade", `${reason(d)}\n\nRun it anyway?`);
					if (ok) return undefined;
				}
				return { block: true, reason: reason(d) };
			}
			default:
				return { block: true, reason: explain(d) };
		}
	});

	// Tool results, before the model sees them.
	pi.on("tool_result", async (event, ctx) => {
		const output = textOf(event.content as Array<{ type: string; text?: string }>);
		if (!output) return undefined;
		let d: Decision;
		try {
			d = await decide({
				...sessionOf(ctx),
				stage: "tool_output",
				tool: { name: event.toolName, arguments: event.input, callId: event.toolCallId, output },
				context: context(ctx.cwd),
			});
		} catch (e) {
			return {
				content: [{ type: "text", text: `Palisade could not check this output, so it is withheld: ${(e as Error).message}` }],
				isError: true,
			};
		}
		if (d.decision === "allow") return undefined;
		if (d.decision === "modify") {
			const text = typeof d.modified?.output === "string" ? d.modified.output : d.modified?.content;
			if (typeof text === "string") return { content: [{ type: "text", text }] };
		}
		return {
			content: [{ type: "text", text: `${d.replacement ?? "This tool output was withheld by policy."} ${reason(d)}` }],
			isError: true,
		};
	});

	// The guardrails check protocol: other extensions ask before they act.
	pi.events.on("guardrails:check", async (data: unknown) => {
		const request = (data ?? {}) as Record<string, unknown>;
		const requestId = typeof request.requestId === "string" ? request.requestId : randomUUID();
		const provider = { id: "palisade", version: VERSION };
		let answer: Record<string, unknown>;
		try {
			const d = await client.decide({ ...request, requestId } as Request, timeoutMs);
			// Callers of this protocol cannot apply a redaction.
			const decision = d.decision === "modify" ? "block" : d.decision;
			answer = { protocolVersion: "1", requestId, decision, reasonCode: d.reasonCode, message: decision === "allow" ? d.message : reason(d), provider };
		} catch (e) {
			answer = { protocolVersion: "1", requestId, decision: "error", reasonCode: "palisade.unavailable", message: (e as Error).message, provider };
		}
		pi.events.emit("guardrails:decision", answer);
	});

	// pi-guardrails' escalate-only classifier contract: a second opinion on
	// shell commands its rules let through. A reason flags; none passes.
	pi.events.on("guardrails:classify:request", (data: unknown) => {
		const answer = (data as { answer?: (c: { id: string; name: string }) => void })?.answer;
		if (typeof answer === "function") answer({ id: CLASSIFIER_ID, name: "Palisade" });
	});
	pi.events.on("guardrails:classify:check", async (data: unknown) => {
		const check = (data ?? {}) as { requestId?: string; action?: unknown; cwd?: string };
		if (typeof check.requestId !== "string") return;
		const action = check.action as { command?: unknown } | string | undefined;
		const command = typeof action === "string" ? action : typeof action?.command === "string" ? action.command : undefined;
		let flag: string | undefined;
		if (command === undefined) {
			flag = undefined;
		} else {
			try {
				const d = await decide({
					stage: "tool_use",
					tool: { name: "bash", arguments: { command } },
					context: context(check.cwd),
				});
				flag = d.decision === "allow" ? undefined : reason(d);
			} catch {
				// The contract fails open: no reason, no flag.
				flag = undefined;
			}
		}
		pi.events.emit("guardrails:classify:decision", {
			requestId: check.requestId,
			classifierId: CLASSIFIER_ID,
			...(flag ? { reason: flag } : {}),
		});
	});

	pi.on("session_shutdown", () => client.close());
}
