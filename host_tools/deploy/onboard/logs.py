"""On the board: print the crash log kept in flash."""


def logs(name):
    try:
        f = open(name)
    except OSError:
        print("(no %s on the board: no crash logged)" % name)
        return
    while True:
        b = f.read(256)
        if not b:
            break
        print(b, end="")
    f.close()
