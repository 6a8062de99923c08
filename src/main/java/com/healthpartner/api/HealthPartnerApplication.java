package com.healthpartner.api;

import io.netty.util.ResourceLeakDetector;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class HealthPartnerApplication {

	public static void main(String[] args) {
		// Netty's buffer-leak sampling records a stack trace now and then on every
		// connection: a debugging aid that tests keep (they do not start here) and that a
		// running service drops unless -Dio.netty.leakDetection.level asks for it
		if (System.getProperty("io.netty.leakDetection.level") == null) {
			ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
		}
		SpringApplication.run(HealthPartnerApplication.class, args);
	}

}
