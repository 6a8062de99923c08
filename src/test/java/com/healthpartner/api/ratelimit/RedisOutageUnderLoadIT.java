package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.InstancesOnRedis;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis, which two instances share for their limits ({@code APP_RATE_LIMIT_STORE=redis}),
 * stops for three seconds under load and starts again, on the instances' real clocks: no
 * request fails or waits (every answer a {@code 200} within a second), health says
 * {@code DEGRADED} meanwhile, and within 5 s of Redis's return the limits are shared
 * again (a default-plan partner gets 60 requests a minute across both instances, not 60
 * on each).
 */
class RedisOutageUnderLoadIT {

	@RegisterExtension
	static final InstancesOnRedis instances = InstancesOnRedis
		.with(Map.of("app.plans", "default=60,loadtest=100000000"));

	@Test
	void redisGoingAwayUnderLoadCostsNoRequestAndSharedLimitsResumeWithinFiveSeconds() throws Exception {
		Credentials busy = new Partners(instances.first().client()).onboard("loadtest");
		AtomicBoolean stopping = new AtomicBoolean();
		AtomicLong slowest = new AtomicLong();
		AtomicLong answered = new AtomicLong();
		List<String> failures = new CopyOnWriteArrayList<>();
		List<Thread> readers = new ArrayList<>();
		for (int n = 0; n < 6; n++) {
			ServiceInstance instance = (n % 2 == 0) ? instances.first() : instances.second();
			WebTestClient client = instance.client().mutate().responseTimeout(Duration.ofSeconds(2)).build();
			Thread reader = new Thread(() -> {
				while (!stopping.get()) {
					long started = System.nanoTime();
					try {
						int status = me(client, busy.apiKey());
						if (status != 200) {
							failures.add(String.valueOf(status));
						}
					}
					catch (RuntimeException ex) {
						failures.add(ex.toString());
					}
					slowest.accumulateAndGet(Duration.ofNanos(System.nanoTime() - started).toMillis(), Math::max);
					answered.incrementAndGet();
				}
			});
			reader.start();
			readers.add(reader);
		}
		try {
			Thread.sleep(1000);
			instances.redis().stop();
			assertThat(eventually(Duration.ofSeconds(3),
					() -> degraded(instances.first()) && degraded(instances.second())))
				.isTrue();
			Thread.sleep(3000);
			instances.redis().start();
			long back = System.nanoTime();
			assertThat(eventually(Duration.ofSeconds(5),
					() -> !degraded(instances.first()) && !degraded(instances.second())))
				.as("both instances use Redis again within 5 s of its return")
				.isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - back)).isLessThan(Duration.ofSeconds(5));
			Thread.sleep(1000);
		}
		finally {
			stopping.set(true);
			for (Thread reader : readers) {
				reader.join(10_000);
			}
		}
		assertThat(failures).as("answers other than 200").isEmpty();
		assertThat(answered.get()).isGreaterThan(100);
		assertThat(slowest.get()).as("the slowest answer (ms)").isLessThan(1000);

		Credentials limited = new Partners(instances.first().client()).onboard();
		int accepted = 0;
		for (int i = 0; i < 120; i++) {
			ServiceInstance instance = (i % 2 == 0) ? instances.first() : instances.second();
			if (me(instance.client(), limited.apiKey()) == 200) {
				accepted++;
			}
		}
		assertThat(accepted).as("one window for both instances").isEqualTo(60);
	}

	private static int me(WebTestClient client, String apiKey) {
		return Partners.meStatus(client, apiKey);
	}

	private static boolean degraded(ServiceInstance instance) {
		return Partners.health(instance.client(), "rateLimitStore").contains("DEGRADED");
	}

}
