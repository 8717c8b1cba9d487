# A WebDAV server for the http engine's tests: nginx (its dav module) on
# 127.0.0.1, a free port, everything in a directory of the test's.
#
#   . "$TEST_DIR/lib-http.sh"
#   nginx_start DIR          nginx serving DIR/dav (PUT, DELETE) on a free
#                            port: 0 with NGINX_HOST (127.0.0.1:PORT) and
#                            NGINX_PID set, else 1 with the reason in
#                            $nginx_why (its log in DIR/error.log)
#   nginx_stop               stops it (by its process id)
#
# With openssl there, the same files are served over TLS too, with a
# certificate made for the test (self-signed): NGINX_TLS_HOST
# (127.0.0.1:PORT), else empty and the reason in $nginx_tls_why.
#
# /auth/ asks for HTTP basic credentials: user "u", password "secret".
# The server runs in the foreground of a background job (daemon off), so
# its id is known; a test sets test_at_exit="nginx_stop" to be sure it
# goes. Without nginx, http_have_nginx fails with the package to install.

http_have_nginx() {
	command -v nginx >/dev/null 2>&1 && return 0
	nginx_why="no nginx: apt-get install nginx-core (its dav module)"
	return 1
}


# http_listening PORT: something accepts on 127.0.0.1:PORT
http_listening() {
	python3 -c 'import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$1" \
		2>/dev/null
}

# nginx_conf DIR PORT [TLS_PORT]: the configuration, on stdout
nginx_conf() {
	# root's workers would run as nobody, unable to write DIR
	[ "$(id -u)" = 0 ] && echo "user root root;"
	cat <<EOF
daemon off;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/error.log;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path $1/tmp;
	proxy_temp_path $1/tmp;
	fastcgi_temp_path $1/tmp;
	uwsgi_temp_path $1/tmp;
	scgi_temp_path $1/tmp;
	client_max_body_size 0;
	server {
		listen 127.0.0.1:$2;
		root $1/dav;
		location / {
			dav_methods PUT DELETE;
			create_full_put_path on;
		}
		location /auth/ {
			dav_methods PUT DELETE;
			auth_basic "iolite";
			auth_basic_user_file $1/htpasswd;
		}
		# errors with a reason in the body: S3's XML, plain text
		location /s3err/ {
			return 403 '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
		}
		location /txterr/ {
			return 409 'Locked\tby\tsomeone\nsecond line';
		}
	}
EOF
	[ -n "$3" ] && cat <<EOF
	server {
		listen 127.0.0.1:$3 ssl;
		ssl_certificate $1/cert.pem;
		ssl_certificate_key $1/key.pem;
		root $1/dav;
		location / {
			dav_methods PUT DELETE;
			create_full_put_path on;
		}
	}
EOF
	echo "}"
}

# nginx_cert DIR: a self-signed certificate for 127.0.0.1 in DIR
nginx_cert() {
	if ! command -v openssl >/dev/null 2>&1; then
		nginx_tls_why="no openssl: apt-get install openssl"
		return 1
	fi
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
		-subj /CN=127.0.0.1 -keyout "$1/key.pem" -out "$1/cert.pem" \
		>"$1/openssl.out" 2>&1 && return 0
	nginx_tls_why="openssl could not make a certificate: $(tail -n 1 \
		"$1/openssl.out")"
	return 1
}

nginx_start() {
	nginx_dir=$1
	http_have_nginx || return 1
	mkdir -p "$nginx_dir/dav/auth" "$nginx_dir/tmp" || return 1
	echo 'u:{PLAIN}secret' >"$nginx_dir/htpasswd"
	nginx_tls_=
	nginx_cert "$nginx_dir" && nginx_tls_=1
	for nginx_try_ in 1 2 3; do
		nginx_port=$(free_port) || return 1
		nginx_tls_port=
		[ -n "$nginx_tls_" ] && { nginx_tls_port=$(free_port) ||
			return 1; }
		[ "$nginx_tls_port" = "$nginx_port" ] &&
			nginx_tls_port=$(free_port)
		nginx_conf "$nginx_dir" "$nginx_port" $nginx_tls_port \
			>"$nginx_dir/nginx.conf"
		: >"$nginx_dir/error.log"
		nginx -p "$nginx_dir" -c "$nginx_dir/nginx.conf" \
			-e "$nginx_dir/error.log" >"$nginx_dir/nginx.out" 2>&1 &
		NGINX_PID=$!
		nginx_n_=0
		while [ $nginx_n_ -lt 100 ] && kill -0 $NGINX_PID 2>/dev/null; do
			if http_listening "$nginx_port" && { [ -z "$nginx_tls_port" ] ||
				http_listening "$nginx_tls_port"; }; then
				NGINX_HOST=127.0.0.1:$nginx_port
				NGINX_TLS_HOST=${nginx_tls_port:+127.0.0.1:$nginx_tls_port}
				return 0
			fi
			sleep 0.1
			nginx_n_=$((nginx_n_ + 1))
		done
		nginx_stop
		# lost the port to another process: try another
		grep -q "Address already in use" "$nginx_dir/error.log" \
			"$nginx_dir/nginx.out" 2>/dev/null || break
	done
	nginx_why="nginx did not start: $(cat "$nginx_dir/error.log" \
		"$nginx_dir/nginx.out" 2>/dev/null | grep . | tail -n 1)"
	return 1
}

nginx_stop() {
	[ -n "$NGINX_PID" ] || return 0
	kill "$NGINX_PID" 2>/dev/null
	wait "$NGINX_PID" 2>/dev/null
	NGINX_PID=
	return 0
}
