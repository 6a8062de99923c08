package com.healthpartner.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class HealthPartnerApplication {

	public static void main(String[] args) {
		SpringApplication.run(HealthPartnerApplication.class, args);
	}

}
