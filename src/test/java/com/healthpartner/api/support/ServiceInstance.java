package com.healthpartner.api.support;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.HealthPartnerApplication;

/**
 * One more running instance of the service, for tests about several instances behind a
 * load balancer: same PostgreSQL as the shared test context, own port, own caches and
 * limiters.
 */
public final class ServiceInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final WebTestClient client;

	private ServiceInstance(ConfigurableApplicationContext context) {
		this.context = context;
		String port = context.getEnvironment().getProperty("local.server.port");
		this.client = WebTestClient.bindToServer()
			.baseUrl("http://localhost:" + port)
			.responseTimeout(Duration.ofSeconds(30))
			.filter(ContractValidation.filter())
			.build();
	}

	public static ServiceInstance start(Map<String, Object> overrides) {
		return start(TestInfrastructure.postgres(), overrides);
	}

	/**
	 * An instance with further configuration, e.g. {@link TestBeans} for a clock the test
	 * can move and the test routes.
	 */
	public static ServiceInstance start(Map<String, Object> overrides, Class<?>... sources) {
		return start(TestInfrastructure.postgres(), overrides, sources);
	}

	/** An instance on a database of its own (for instance one a test stops). */
	public static ServiceInstance start(TestInfrastructure.Database db, Map<String, Object> overrides,
			Class<?>... sources) {
		Map<String, Object> properties = properties(db);
		properties.put("server.port", "0");
		properties.putAll(overrides);
		return new ServiceInstance(new SpringApplicationBuilder(HealthPartnerApplication.class).sources(sources)
			.properties(properties)
			.initializers(ServiceInstance::ownNettyResources)
			.run());
	}

	/**
	 * By default Reactor Netty's event loops and connection pool are global to the JVM,
	 * and closing a context disposes them under the feet of the shared test context and
	 * its clients. An instance gets resources of its own instead.
	 */
	private static void ownNettyResources(ConfigurableApplicationContext context) {
		((GenericApplicationContext) context).registerBean(ReactorResourceFactory.class, () -> {
			ReactorResourceFactory resources = new ReactorResourceFactory();
			resources.setUseGlobalResources(false);
			return resources;
		});
	}

	/** The instance's clock, when it was started with {@link TestBeans}. */
	public MutableClock clock() {
		return this.context.getBean(MutableClock.class);
	}

	/**
	 * The settings of a test instance on {@code db}: those of the shared test context.
	 */
	static Map<String, Object> properties(TestInfrastructure.Database db) {
		Map<String, Object> properties = new HashMap<>();
		properties.put("app.dev.embedded-database", "false");
		properties.put("app.admin-token", IntegrationTest.ADMIN_TOKEN);
		properties.put("app.secret-encryption-key", IntegrationTest.ENCRYPTION_KEY);
		properties.put("app.plans", IntegrationTest.PLANS);
		properties.put("app.anonymous-limit-per-minute", IntegrationTest.PER_IP_LIMIT);
		properties.put("app.registration-limit-per-hour", IntegrationTest.PER_IP_LIMIT);
		properties.put("spring.r2dbc.url", db.r2dbcUrl());
		properties.put("spring.r2dbc.username", db.username());
		properties.put("spring.r2dbc.password", db.password());
		properties.put("spring.flyway.url", db.jdbcUrl());
		properties.put("spring.flyway.user", db.username());
		properties.put("spring.flyway.password", db.password());
		return properties;
	}

	public WebTestClient client() {
		return this.client;
	}

	public ConfigurableApplicationContext context() {
		return this.context;
	}

	@Override
	public void close() {
		this.context.close();
	}

}
