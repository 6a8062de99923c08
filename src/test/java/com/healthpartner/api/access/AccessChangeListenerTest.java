package com.healthpartner.api.access;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.FreezableProxy;
import com.healthpartner.api.support.TestInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key cache is trusted only while the {@code LISTEN} connection works: a connection
 * that dies silently (a half-open connection, made here by a proxy that stops carrying
 * its bytes) is found by the liveness check, the cache is bypassed meanwhile, and a new
 * connection brings notifications back. The listener runs alone, on a short check period,
 * against the test PostgreSQL.
 */
class AccessChangeListenerTest {

	private static final Duration CHECK = Duration.ofMillis(200);

	private static final String KEY = "hpk_" + "7".repeat(32);

	private final UUID partnerId = UUID.randomUUID();

	private final AtomicInteger lookups = new AtomicInteger();

	private final TestInfrastructure.Database db = TestInfrastructure.postgres();

	private FreezableProxy proxy;

	private KeyCache cache;

	private AccessChangeListener listener;

	@BeforeEach
	void listenThroughTheProxy() {
		this.proxy = new FreezableProxy(this.db.host(), this.db.port());
		this.cache = new KeyCache(new CountedLookup(this.partnerId, this.lookups));
		this.listener = new AccessChangeListener(connections(this.proxy.port()), this.cache, CHECK, CHECK);
		this.listener.start();
	}

	@AfterEach
	void stop() {
		this.listener.stop();
		this.proxy.close();
	}

	@Test
	void aSilentlyDeadConnectionIsFoundTheCacheIsBypassedAndANewConnectionListensAgain() {
		assertThat(eventually(Duration.ofSeconds(10), () -> lookupsOfTwoResolves().map((n) -> n == 0)))
			.as("the key is served from the trusted cache")
			.isTrue();
		assertThat(
				eventually(Duration.ofSeconds(2), () -> notifyChange().then(lookupsOfTwoResolves()).map((n) -> n == 1)))
			.as("a change notified evicts the key")
			.isTrue();

		this.proxy.freezeOpenConnections();
		assertThat(eventually(Duration.ofSeconds(5), () -> lookupsOfTwoResolves().map((n) -> n == 2)))
			.as("with the connection dead, every resolve looks the key up")
			.isTrue();

		assertThat(eventually(Duration.ofSeconds(10), () -> lookupsOfTwoResolves().map((n) -> n == 0)))
			.as("a new connection: the cache is trusted again")
			.isTrue();
		assertThat(
				eventually(Duration.ofSeconds(2), () -> notifyChange().then(lookupsOfTwoResolves()).map((n) -> n == 1)))
			.as("and notifications arrive on it")
			.isTrue();
	}

	/** How many look-ups two resolves of the key took: 0 cached, 2 cache bypassed. */
	private Mono<Integer> lookupsOfTwoResolves() {
		return Mono.defer(() -> {
			int before = this.lookups.get();
			return this.cache.resolve(KEY, Mono.empty())
				.then(this.cache.resolve(KEY, Mono.empty()))
				.then(Mono.fromSupplier(() -> this.lookups.get() - before));
		});
	}

	/** What an administrator's change on any instance sends. */
	private Mono<Boolean> notifyChange() {
		return Mono
			.usingWhen(
					connections(this.db
						.port()).create(),
					(connection) -> Flux.from(connection
						.createStatement(
								"select pg_notify('" + AccessChangeListener.CHANNEL + "', '" + this.partnerId + "')")
						.execute()).flatMap((result) -> result.getRowsUpdated()).then(Mono.just(true)),
					(connection) -> connection.close());
	}

	private ConnectionFactory connections(int port) {
		ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions.builder()
			.option(ConnectionFactoryOptions.DRIVER, "postgresql")
			.option(ConnectionFactoryOptions.HOST, this.db.host())
			.option(ConnectionFactoryOptions.PORT, port)
			.option(ConnectionFactoryOptions.DATABASE, this.db.name())
			.option(ConnectionFactoryOptions.USER, this.db.username())
			.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, Duration.ofSeconds(2));
		if (!this.db.password().isEmpty()) {
			options.option(ConnectionFactoryOptions.PASSWORD, this.db.password());
		}
		return ConnectionFactories.get(options.build());
	}

	/**
	 * Asks the condition on the test's thread, never a Reactor thread, until it holds.
	 */
	private static boolean eventually(Duration limit, Supplier<Mono<Boolean>> condition) {
		return Eventually.eventually(limit, () -> Boolean.TRUE.equals(condition.get().block(Duration.ofSeconds(5))));
	}

	/** A key of the partner, counting how often it is looked up. */
	private record CountedLookup(UUID partnerId, AtomicInteger lookups) implements KeyLookup {

		@Override
		public Mono<ApiPrincipal> findByHash(byte[] keyHash) {
			return Mono.fromSupplier(() -> {
				this.lookups.incrementAndGet();
				return new ApiPrincipal(this.partnerId, "Gym", "default", PartnerStatus.ACTIVE, UUID.randomUUID(),
						Set.of(), false, null, new byte[0]);
			});
		}

		@Override
		public Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
			return Mono.empty();
		}

		@Override
		public String decryptSecret(byte[] secretCiphertext) {
			throw new UnsupportedOperationException("no signed requests here");
		}

	}

}
