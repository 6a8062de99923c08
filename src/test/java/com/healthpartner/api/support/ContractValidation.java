package com.healthpartner.api.support;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;

/**
 * Installed on every test client ({@link IntegrationTest}, {@link ServiceInstance}):
 * checks each answer against the OpenAPI document before the test sees it, and fails the
 * exchange with a {@link ContractViolation} naming the route, the status and what is
 * undocumented. NDJSON streams are checked line by line as the test reads them, so they
 * still stream.
 */
public final class ContractValidation {

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	private ContractValidation() {
	}

	public static ExchangeFilterFunction filter() {
		return filter(OpenApiContract.shared());
	}

	public static ExchangeFilterFunction filter(OpenApiContract contract) {
		return (request, next) -> next.exchange(request).flatMap((response) -> check(contract, request, response));
	}

	private static Mono<ClientResponse> check(OpenApiContract contract, ClientRequest request,
			ClientResponse response) {
		if (contract.exempt(request.url().getRawPath())) {
			// read all the same, so that a test that only looks at the status lets go of
			// the body's buffers
			return read(response).map((bytes) -> withBody(response, bytes));
		}
		MediaType type = response.headers().contentType().orElse(null);
		if (type != null && NDJSON.equalsTypeAndSubtype(type)) {
			ObservedResponse observed = observed(request, response, null);
			List<String> violations = contract.violations(observed);
			if (!violations.isEmpty()) {
				return response.releaseBody().then(Mono.error(violation(observed, violations)));
			}
			Lines lines = new Lines(contract, observed);
			return Mono.just(response.mutate()
				.body((body) -> body.concatMap(lines::check).concatWith(Mono.defer(lines::finish)))
				.build());
		}
		return read(response).flatMap((bytes) -> {
			ObservedResponse observed = observed(request, response, bytes);
			List<String> violations = contract.violations(observed);
			if (!violations.isEmpty()) {
				return Mono.error(violation(observed, violations));
			}
			return Mono.just(withBody(response, bytes));
		});
	}

	private static Mono<byte[]> read(ClientResponse response) {
		return response.bodyToMono(byte[].class).defaultIfEmpty(new byte[0]);
	}

	/** {@code response} with {@code bytes}, as read, for its body. */
	private static ClientResponse withBody(ClientResponse response, byte[] bytes) {
		Flux<DataBuffer> body = (bytes.length > 0) ? Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(bytes))
				: Flux.empty();
		return response.mutate().body(body).build();
	}

	private static ObservedResponse observed(ClientRequest request, ClientResponse response, byte[] body) {
		return new ObservedResponse(request.method().name(), request.url().getRawPath(), response.statusCode().value(),
				response.headers().asHttpHeaders(), body);
	}

	private static ContractViolation violation(ObservedResponse observed, List<String> violations) {
		return new ContractViolation(OpenApiContract.describe(observed, violations));
	}

	/**
	 * Splits a stream into lines (UTF-8 safe: split on the newline byte) and checks each.
	 */
	private static final class Lines {

		private final OpenApiContract contract;

		private final ObservedResponse observed;

		private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

		private int number;

		Lines(OpenApiContract contract, ObservedResponse observed) {
			this.contract = contract;
			this.observed = observed;
		}

		Flux<DataBuffer> check(DataBuffer buffer) {
			ByteBuffer copy = ByteBuffer.allocate(buffer.readableByteCount());
			buffer.toByteBuffer(buffer.readPosition(), copy, 0, copy.capacity());
			List<String> violations = new ArrayList<>();
			for (byte b : copy.array()) {
				if (b == '\n') {
					violations.addAll(line());
				}
				else {
					this.pending.write(b);
				}
			}
			if (!violations.isEmpty()) {
				DataBufferUtils.release(buffer);
				return Flux.error(violation(this.observed, violations));
			}
			return Flux.just(buffer);
		}

		Mono<DataBuffer> finish() {
			List<String> violations = line();
			return violations.isEmpty() ? Mono.empty() : Mono.error(violation(this.observed, violations));
		}

		private List<String> line() {
			String line = this.pending.toString(StandardCharsets.UTF_8);
			this.pending.reset();
			this.number++;
			if (line.isBlank()) {
				return List.of();
			}
			return this.contract.lineViolations(this.observed, line)
				.stream()
				.map((violation) -> violation.replaceFirst("^line", "line " + this.number))
				.toList();
		}

	}

}
