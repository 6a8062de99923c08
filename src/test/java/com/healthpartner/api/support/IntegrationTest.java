package com.healthpartner.api.support;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the full-application tests: the whole service on a random port, through every
 * filter, on real PostgreSQL (and Redis) from {@link TestInfrastructure}. All subclasses
 * share one context. Every answer the client receives is checked against the OpenAPI
 * document ({@link ContractValidation}).
 */
@Import(TestBeans.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "app.dev.embedded-database=false", "app.admin-token=" + IntegrationTest.ADMIN_TOKEN,
				"app.secret-encryption-key=" + IntegrationTest.ENCRYPTION_KEY, "app.plans=" + IntegrationTest.PLANS,
				"app.anonymous-limit-per-minute=" + IntegrationTest.PER_IP_LIMIT,
				"app.registration-limit-per-hour=" + IntegrationTest.PER_IP_LIMIT, "app.webhooks.allow-http=true",
				"app.webhooks.allowed-hosts=127.0.0.1" })
public abstract class IntegrationTest {

	public static final String ADMIN_TOKEN = "test-admin-token-0123456789";

	/**
	 * The documented plans plus {@code loadtest}, for tests that send more than a default
	 * partner's 60 requests a minute.
	 */
	public static final String PLANS = "default=60,enterprise=300,loadtest=1000000";

	/**
	 * Every test client comes from 127.0.0.1: the shared context must not limit it per
	 * IP. Tests of the per-IP limits start their own instance with low limits.
	 */
	public static final String PER_IP_LIMIT = "1000000";

	public static final String ENCRYPTION_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

	@LocalServerPort
	protected int port;

	protected WebTestClient client;

	protected Partners partners;

	@Autowired
	protected MutableClock clock;

	@DynamicPropertySource
	static void infrastructure(DynamicPropertyRegistry registry) {
		TestInfrastructure.Database db = TestInfrastructure.postgres();
		registry.add("spring.r2dbc.url", db::r2dbcUrl);
		registry.add("spring.r2dbc.username", db::username);
		registry.add("spring.r2dbc.password", db::password);
		registry.add("spring.flyway.url", db::jdbcUrl);
		registry.add("spring.flyway.user", db::username);
		registry.add("spring.flyway.password", db::password);
	}

	@BeforeEach
	void connect() {
		this.client = WebTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.responseTimeout(Duration.ofSeconds(30))
			// the answer of a batch of 1,000 records is larger than the default 256 KiB
			.codecs((codecs) -> codecs.defaultCodecs().maxInMemorySize(4 * 1024 * 1024))
			.filter(ContractValidation.filter())
			.build();
		this.partners = new Partners(this.client);
	}

}
