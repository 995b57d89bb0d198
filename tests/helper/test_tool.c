/* placeholder: replaced by the misbehaving-children helper */
int main(void)
{
	return 0;
}
