"""The digests BoardLab publishes (docs/solver.md), by ruleset id: `boardlab tables install`
checks a table against its published digest, and `boardlab tables list` says whether an
installed table has it. The lines are as the command prints them.

Made with `boardlab tables digest` (scheme `boardlab-table-digest-1`, see
`boardlab.solver.digest`) over tables solved with `boardlab solve`.
"""

from __future__ import annotations

_LINES = """
8e9c405a27b89fc9a0b11b21a00528e5f91a045647e7f8efd062f758fff0a803  dodgem-3-classic-wins-normal
364d506823cb68289a09e71a074b3897e099dc830002e275b540972ee4ce095f  dodgem-3-classic-loses-normal
40eb20ecc79ee3d82c2622ff98347361231e0df44eff166a5e784b04ec383605  dodgem-3-classic-wins-misere
2818be7cb5b37959b73abb6809a1b698819cdab4785e2cd0b529dc3b6b59d623  dodgem-3-piecepack-passes-normal
354a06459794f771badda11b8a8a4e5467048b33177543d0af4ea750c7a96edd  dodgem-4-classic-wins-normal
c7e23ab6b9366464ac2c0031ec27016f837c21efe5118c1f0b1af2d9f86cc2de  dodgem-4-classic-loses-normal
136e875ab398519e88a7f82256948d5a2863a192345c6c32f2d4111e4991307d  dodgem-4-classic-wins-misere
9ca662b879545a2333d13eb1eeae31a3e0d0f6a3aab09d735c85f9132a77015e  dodgem-4-piecepack-passes-normal
8c1e2c980aa79a48410ab2b3ce574e8032e3a8ee0f164b1b11b9f47c478a2165  dodgem-5-classic-wins-normal
43033593aef726a751e3ef86954458e03d4daa2b8f0a365f93cbdcf42e36ddbd  dodgem-5-classic-loses-normal
b6f51bc76c9126d440b6718a1333a600b5445194f7afac27264823c2256788b1  dodgem-5-classic-wins-misere
7f8052b42bf9f6d773486e83490e3c3bfab7c403f97fb1813dcd4cfc4ba1a262  dodgem-5-piecepack-passes-normal
"""

PUBLISHED: dict[str, str] = {
    ruleset: digest for digest, ruleset in (line.split() for line in _LINES.strip().splitlines())
}
