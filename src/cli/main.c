/* placeholder: replaced by the command table */
#include <stdio.h>
int main(void)
{
	return 0;
}
