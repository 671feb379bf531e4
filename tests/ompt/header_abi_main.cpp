/* pvomp's omp-tools.h against LLVM's (Debian's libomp-dev): every enumerator
 * value, type size and alignment, structure member offset and size, and
 * function-pointer signature that header_abi_list.h names must be identical,
 * so that a tool compiled against either header runs on pvomp. */
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

std::vector<std::pair<std::string, std::string>> abi_table_pvomp();
std::vector<std::pair<std::string, std::string>> abi_table_llvm();

int main()
{
    auto ours = abi_table_pvomp();
    auto theirs = abi_table_llvm();
    if (ours.size() != theirs.size() || ours.empty()) {
        std::printf("FAIL: table sizes differ (%zu vs %zu)\n", ours.size(), theirs.size());
        return 1;
    }
    int bad = 0;
    for (size_t i = 0; i < ours.size(); i++) {
        if (ours[i] != theirs[i]) {
            std::printf("FAIL: %s: pvomp %s, LLVM %s\n", ours[i].first.c_str(),
                        ours[i].second.c_str(), theirs[i].second.c_str());
            bad++;
        }
    }
    std::printf("%zu properties compared, %d differ\n", ours.size(), bad);
    return bad != 0;
}
