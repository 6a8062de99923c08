package com.healthpartner.api.gate;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.access.AdminToken;
import com.healthpartner.api.access.ApiKeys;
import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.KeyCheck;
import com.healthpartner.api.edge.EarlyAnswers;
import com.healthpartner.api.edge.EdgeRefusal;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemWriter;
import com.healthpartner.api.problem.RequestIds;
import com.healthpartner.api.ratelimit.Decision;
import com.healthpartner.api.ratelimit.EdgeRefusals;
import com.healthpartner.api.ratelimit.RateLimits;
import com.healthpartner.api.signature.Signatures;
import com.healthpartner.api.web.Answers;
import com.healthpartner.api.json.BodyLimits;
import com.healthpartner.api.web.Deadline;
import com.healthpartner.api.web.FilterOrder;
import com.healthpartner.api.web.InFlightRequests;
import com.healthpartner.api.web.LogAttributes;
import com.healthpartner.api.web.RequestPaths;
import com.healthpartner.api.web.RequestPaths.Zone;

/**
 * Every check a request of {@code /api} or {@code /admin} meets before its handler, in
 * the order docs/api.md gives, in this one class: 1. the key ({@code 401}), 2. its
 * partner's status ({@code 403}), 3. the plan ({@code 429}), 4. the signature
 * ({@code 401}); the admin token on {@code /admin}; the address's limits for a request
 * without a valid key. A check that can decide from memory does, and a refusal does no
 * database work; a used-up plan is refused even before the web layer, by the HTTP edge
 * ({@link #answer}). Check 5, the scope, is the routers' (docs/architecture.md).
 */
@Component
@Order(FilterOrder.GATE)
class ApiGate implements WebFilter, EarlyAnswers {

	private final AdminToken adminToken;

	private final ApiKeys keys;

	private final RateLimits limits;

	private final Signatures signatures;

	private final Deadline deadline;

	private final InFlightRequests inFlight;

	private final ProblemWriter problems;

	private final Answers answers;

	private final EdgeRefusals refusals;

	ApiGate(AdminToken adminToken, ApiKeys keys, RateLimits limits, Signatures signatures, Deadline deadline,
			InFlightRequests inFlight, ProblemWriter problems, Answers answers) {
		this.adminToken = adminToken;
		this.keys = keys;
		this.limits = limits;
		this.signatures = signatures;
		this.deadline = deadline;
		this.inFlight = inFlight;
		this.problems = problems;
		this.answers = answers;
		this.refusals = new EdgeRefusals(problems);
	}

	/**
	 * Checks 1 to 3 of a request head the HTTP edge holds: the {@code 429} of
	 * {@link #filter}, whole and recorded, when the key is cached and valid, the partner
	 * active and its window in memory used up; otherwise null, nothing taken or counted
	 * (design.md, "The HTTP edge").
	 */
	@Override
	public FullHttpResponse answer(HttpRequest request, String path) {
		long start = System.nanoTime();
		String method = request.method().name();
		// a HEAD's answer has no body: left to the web layer
		if (!path.startsWith("/api/v1/") || "HEAD".equals(method)) {
			return null;
		}
		KeyCheck known = this.keys.checkNow(request.headers().get(ApiKeys.HEADER));
		if (known == null || !known.isGranted()) {
			return null;
		}
		ApiPrincipal principal = known.principal();
		Decision refused = this.limits.partnerRefusedNow(principal);
		// the path's zone only for a refusal: most requests are not one
		if (refused == null || RequestPaths.zone(HttpMethod.valueOf(method), path) != Zone.PARTNER) {
			return null;
		}
		this.limits.count(refused);
		String id = RequestIds.chooseFor(request.headers().get(RequestIds.HEADER));
		FullHttpResponse answer = this.refusals.answer(refused, path, id);
		this.answers.answeredAtEdge(id, method, path, answer.status().code(), principal.partnerIdText(), start);
		return answer;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		Zone zone = RequestPaths.zone(exchange);
		EdgeRefusal refused = EdgeRefusal.of(exchange.getRequest());
		if (refused != null) {
			return edgeRefusal(exchange, zone, refused.problem());
		}
		if (zone == Zone.PUBLIC) {
			return chain.filter(exchange);
		}
		if (zone == Zone.ADMIN && !this.adminToken.accepts(exchange.getRequest())) {
			return refuse(exchange, AdminToken.REFUSAL);
		}
		// the deadline covers the checks too: a key looked up in a database that stopped
		// answering is a 503, not a hang
		Mono<Void> checked = Mono.defer(() -> switch (zone) {
			case PARTNER -> partner(exchange, chain);
			case REGISTRATION -> registration(exchange, chain);
			default -> handle(exchange, chain);
		});
		Mono<Void> bounded = (Deadline.isExport(exchange) || BodyLimits.streamed(exchange.getRequest())) ? checked
				: this.deadline.bound(exchange, checked);
		if (zone != Zone.PARTNER) {
			return bounded;
		}
		// the key could not be checked (the database failed or missed the deadline, the
		// address's window is used up): unchecked, unless a limit already spoke
		return bounded.onErrorResume((failure) -> !RateLimits.decided(exchange),
				(failure) -> unchecked(exchange, failure));
	}

	/** Checks 1 to 4, then the handler. */
	private Mono<Void> partner(ServerWebExchange exchange, WebFilterChain chain) {
		KeyCheck known = this.keys.checkNow(exchange);
		if (known != null) {
			return keyChecked(exchange, chain, known);
		}
		return this.keys.lookUp(exchange)
			.flatMap((check) -> keyChecked(exchange, chain, check))
			// the key could not be checked (the database failed, the address's window is
			// used up): unchecked, unless a limit already spoke
			.onErrorResume((failure) -> !RateLimits.decided(exchange), (failure) -> unchecked(exchange, failure));
	}

	/**
	 * A request whose key could not be checked: counted under its address
	 * ({@link #anonymous}), but not refused by the address's window when its key resolved
	 * to a partner's recently: it keeps the failure (a {@code 503} while the database is
	 * gone), with the address's rate-limit headers. Refused by the address, a partner's
	 * own writers used up its window within seconds of an outage and were refused with
	 * {@code 429} for up to a minute after the database was back.
	 */
	private Mono<Void> unchecked(ServerWebExchange exchange, Throwable failure) {
		return anonymous(exchange, failure, !(failure instanceof ApiException) && this.keys.known(exchange));
	}

	private Mono<Void> keyChecked(ServerWebExchange exchange, WebFilterChain chain, KeyCheck check) {
		if (!check.isGranted()) {
			return anonymous(exchange, check.refusal());
		}
		ApiPrincipal principal = check.principal();
		exchange.getAttributes().put(ApiPrincipal.ATTRIBUTE, principal);
		exchange.getAttributes().put(LogAttributes.PARTNER_ID, principal.partnerIdText());
		Decision decision = this.limits.partnerNow(exchange, principal);
		if (decision != null) {
			return limited(exchange, chain, principal, decision);
		}
		return this.limits.partner(exchange, principal).flatMap((taken) -> limited(exchange, chain, principal, taken));
	}

	/** After check 3: refused, or on to the signature and the handler. */
	private Mono<Void> limited(ServerWebExchange exchange, WebFilterChain chain, ApiPrincipal principal,
			Decision decision) {
		if (!decision.allowed()) {
			// a refused request did not use its key: it leaves no trace
			return refuse(exchange, RateLimits.limited(decision));
		}
		this.keys.used(principal);
		Mono<ServerWebExchange> signed = this.signatures.verify(exchange, principal);
		return (signed != null) ? signed.flatMap((verified) -> handle(verified, chain)) : handle(exchange, chain);
	}

	/**
	 * A request refused by check 1 or 2, or whose key could not be checked: counted under
	 * {@code anonymous}; it keeps its own answer unless its address has used up its
	 * window.
	 */
	private Mono<Void> anonymous(ServerWebExchange exchange, Throwable failure) {
		return anonymous(exchange, failure, false);
	}

	/** {@link #anonymous}, for a partner's key never refused by the address's window. */
	private Mono<Void> anonymous(ServerWebExchange exchange, Throwable failure, boolean partnersKey) {
		return this.limits.anonymous(exchange).flatMap((decision) -> {
			if (!decision.allowed() && !partnersKey) {
				return refuse(exchange, RateLimits.limited(decision));
			}
			return (failure instanceof ApiException refusal) ? refuse(exchange, refusal) : Mono.error(failure);
		});
	}

	/**
	 * A request the HTTP edge refused before routing: on {@code /api/v1} it counts under
	 * {@code anonymous} and carries its headers.
	 */
	private Mono<Void> edgeRefusal(ServerWebExchange exchange, Zone zone, ApiException refusal) {
		if (!zone.partnerApi()) {
			return refuse(exchange, refusal);
		}
		return this.limits.anonymous(exchange)
			.flatMap((decision) -> refuse(exchange, decision.allowed() ? refusal : RateLimits.limited(decision)));
	}

	private Mono<Void> registration(ServerWebExchange exchange, WebFilterChain chain) {
		return this.limits.registration(exchange)
			.flatMap((binding) -> binding.allowed() ? handle(exchange, chain)
					: refuse(exchange, RateLimits.limited(binding)));
	}

	private Mono<Void> handle(ServerWebExchange exchange, WebFilterChain chain) {
		return this.inFlight.handle(exchange, chain);
	}

	private Mono<Void> refuse(ServerWebExchange exchange, ApiException refusal) {
		return this.problems.write(exchange, refusal);
	}

	/**
	 * The filter's name in Spring's checkpoint of every request: a constant, as
	 * {@code EdgeFilter}'s.
	 */
	@Override
	public String toString() {
		return "ApiGate";
	}

}
