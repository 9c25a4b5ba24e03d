package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// config is the project's config/*.json with environment overrides.
type config struct {
	Dir         string
	Host        string
	Port        int
	Env         string
	DatabaseURL string
	API         apiConfig
}

type apiConfig struct {
	Rest struct {
		Prefix       string `json:"prefix"`
		DefaultLimit int    `json:"defaultLimit"`
		MaxLimit     *int   `json:"maxLimit"`
		WithCount    *bool  `json:"withCount"`
		MaxBodySize  int64  `json:"maxBodySize"`
	} `json:"rest"`
}

func loadConfig(dir string) (*config, error) {
	c := &config{Dir: dir, Host: "0.0.0.0", Port: 1337, Env: "development"}
	var server struct {
		Host string `json:"host"`
		Port int    `json:"port"`
	}
	if err := readJSON(dir, "server.json", &server); err != nil {
		return nil, err
	}
	if server.Host != "" {
		c.Host = server.Host
	}
	if server.Port != 0 {
		c.Port = server.Port
	}
	var db struct {
		URL string `json:"url"`
	}
	if err := readJSON(dir, "database.json", &db); err != nil {
		return nil, err
	}
	c.DatabaseURL = db.URL
	if err := readJSON(dir, "api.json", &c.API); err != nil {
		return nil, err
	}
	if v := os.Getenv("HOST"); v != "" {
		c.Host = v
	}
	if v := os.Getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("PORT=%q is not a port number", v)
		}
		c.Port = p
	}
	if v := os.Getenv("DATABASE_URL"); v != "" {
		c.DatabaseURL = v
	}
	if v := os.Getenv("STRATUM_ENV"); v != "" {
		switch v {
		case "development", "staging", "production":
			c.Env = v
		default:
			return nil, fmt.Errorf("STRATUM_ENV=%q: expected development, staging or production", v)
		}
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = filepath.Join(dir, ".tmp", "data.db")
	}
	return c, nil
}

// readJSON reads config/<name> if it exists.
func readJSON(dir, name string, v any) error {
	b, err := os.ReadFile(filepath.Join(dir, "config", name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("config/%s: %w", name, err)
	}
	return nil
}
