package com.healthpartner.api.signature;

import java.net.URI;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.crypto.Digests;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.json.BodyLimits;

/**
 * Check 4 (docs/api.md, Signed requests), after the rate limit: a request that carries
 * {@code x-signature} (and every request of a partner with {@code signing_required}) must
 * be signed with the secret of the key it sends, over
 * {@code t + "\n" + METHOD + "\n" + path_and_query + "\n" + hex(sha256(body))}, with
 * {@code t} within 300 s of server time; a signed write is accepted once. The body is
 * read (within the body limit) only for a signed request, and handed on to the handlers
 * unchanged; an import's body is not read first but hashed as the handler streams it, and
 * ends in {@code 401} instead of ending if the signature does not match
 * ({@link StreamedBody}).
 */
@Component
public class Signatures {

	static final String HEADER = "x-signature";

	static final Duration TOLERANCE = Duration.ofSeconds(300);

	private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
			HttpMethod.DELETE);

	private final SigningKeys keys;

	private final ReplayGuard replays;

	private final Clock clock;

	private final BodyLimits limits;

	Signatures(SigningKeys keys, ReplayGuard replays, Clock clock, BodyLimits limits) {
		this.keys = keys;
		this.replays = replays;
		this.clock = clock;
		this.limits = limits;
	}

	/**
	 * Check 4 for {@code principal}'s request: null when it carries no signature and
	 * needs none, otherwise the exchange to hand on (its body read, within the body
	 * limit, and readable again), or an error {@code 401 invalid_signature}.
	 */
	public Mono<ServerWebExchange> verify(ServerWebExchange exchange, ApiPrincipal principal) {
		ServerHttpRequest request = exchange.getRequest();
		String header = request.getHeaders().getFirst(HEADER);
		if (header == null) {
			return principal.signingRequired() ? Mono.error(invalid(
					"This partner must sign every request: send x-signature: t=<unix seconds>,v1=<HMAC-SHA256 hex>"))
					: null;
		}
		return Mono.defer(() -> verify(exchange, principal, header));
	}

	private Mono<ServerWebExchange> verify(ServerWebExchange exchange, ApiPrincipal principal, String header) {
		ServerHttpRequest request = exchange.getRequest();
		SignatureHeader signature = SignatureHeader.parse(header);
		Instant now = this.clock.instant();
		Instant signedAt = Instant.ofEpochSecond(signature.timestamp());
		if (Duration.between(signedAt, now).abs().compareTo(TOLERANCE) > 0) {
			return Mono.error(invalid("The signature's timestamp t=" + signature.timestamp()
					+ " is more than 300 s away from server time (" + now.getEpochSecond() + ")"));
		}
		if (BodyLimits.streamed(request)) {
			// an import's body may be a gigabyte: hashed as it streams, checked at its
			// end
			return Mono.just(exchange.mutate()
				.request(new StreamedBody(request,
						(bodyHash) -> checked(principal, signature, signedAt, request, bodyHash,
								Mono.<DataBuffer>empty())))
				.build());
		}
		return BufferedBody.read(request, this.limits.of(request.getPath().value()))
			.flatMap((body) -> checked(principal, signature, signedAt, request, Digests.sha256Hex(body),
					Mono.just(exchange.mutate().request(BufferedBody.replaying(request, body)).build())));
	}

	/**
	 * {@code then} if the signature matches the body of hash {@code bodyHash} (and, for a
	 * write, was not used before); otherwise {@code 401 invalid_signature}.
	 */
	private <T> Mono<T> checked(ApiPrincipal principal, SignatureHeader signature, Instant signedAt,
			ServerHttpRequest request, String bodyHash, Mono<T> then) {
		byte[] expected = Digests.hmacSha256(this.keys.of(principal),
				message(signature.timestamp(), request, bodyHash));
		boolean matches = false;
		for (byte[] candidate : signature.signatures()) {
			matches |= MessageDigest.isEqual(expected, candidate);
		}
		if (!matches) {
			return Mono.error(invalid("The signature does not match: sign t, the method, the path with query and "
					+ "the SHA-256 of the body with the secret issued with this API key"));
		}
		if (!WRITES.contains(request.getMethod())) {
			return then;
		}
		return this.replays.firstUse(expected, signedAt.plus(TOLERANCE))
			.flatMap((first) -> first ? then : Mono.error(invalid(
					"This signature was already used for a write; sign a retry again (new t) and send an Idempotency-Key")));
	}

	/**
	 * The signed text; {@code path_and_query} is the request target as sent,
	 * {@code bodyHash} the body's SHA-256 in hex.
	 */
	static String message(long timestamp, ServerHttpRequest request, String bodyHash) {
		URI uri = request.getURI();
		String target = (uri.getRawQuery() != null) ? uri.getRawPath() + "?" + uri.getRawQuery() : uri.getRawPath();
		return timestamp + "\n" + request.getMethod().name() + "\n" + target + "\n" + bodyHash;
	}

	private static ApiException invalid(String detail) {
		return new ApiException(ProblemType.INVALID_SIGNATURE, detail);
	}

}
