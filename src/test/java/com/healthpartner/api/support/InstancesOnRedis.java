package com.healthpartner.api.support;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Two instances of the service sharing their rate limits in one Redis of their own
 * ({@code APP_RATE_LIMIT_STORE=redis}), as several instances run in production: started
 * before a test class, closed after it
 * ({@code @RegisterExtension static final InstancesOnRedis instances = ...}).
 */
public final class InstancesOnRedis implements BeforeAllCallback, AfterAllCallback {

	private final Map<String, Object> properties;

	private final Class<?>[] configurations;

	private StoppableRedis redis;

	private ServiceInstance first;

	private ServiceInstance second;

	private InstancesOnRedis(Map<String, Object> properties, Class<?>[] configurations) {
		this.properties = properties;
		this.configurations = configurations;
	}

	/** Both instances with {@code properties} besides the store's, and further beans. */
	public static InstancesOnRedis with(Map<String, Object> properties, Class<?>... configurations) {
		return new InstancesOnRedis(properties, configurations);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.redis = TestInfrastructure.dedicatedRedis();
		Map<String, Object> shared = new HashMap<>(this.properties);
		shared.put("app.rate-limit-store", "redis");
		shared.put("spring.data.redis.url", this.redis.url());
		this.first = ServiceInstance.start(shared, this.configurations);
		this.second = ServiceInstance.start(shared, this.configurations);
	}

	public StoppableRedis redis() {
		return this.redis;
	}

	public ServiceInstance first() {
		return this.first;
	}

	public ServiceInstance second() {
		return this.second;
	}

	@Override
	public void afterAll(ExtensionContext context) {
		for (AutoCloseable closeable : new AutoCloseable[] { this.first, this.second, this.redis }) {
			if (closeable != null) {
				try {
					closeable.close();
				}
				catch (Exception ex) {
					throw new IllegalStateException("Could not stop " + closeable, ex);
				}
			}
		}
	}

}
